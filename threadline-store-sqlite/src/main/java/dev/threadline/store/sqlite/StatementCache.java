package dev.threadline.store.sqlite;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.HashMap;
import java.util.Map;

/**
 * Keeps one prepared statement per SQL text on a connection. {@code prepareStatement(sql)} on the
 * wrapped connection returns the cached statement, whose {@code close()} only clears its parameters,
 * so the row classes keep their plain try-with-resources and an append stops paying SQLite's
 * statement compilation (five statements a write) every time. Closing the connection closes them all.
 *
 * <p>Not thread-safe, like the connection itself: the writer is used by one leader at a time, a
 * reader by the one thread that borrowed it. A statement must not be re-executed while a result set
 * of it is still being read (no row class nests one SQL text inside itself).
 */
final class StatementCache {
    private StatementCache() {}

    static Connection wrap(Connection c) {
        Map<String, PreparedStatement> cache = new HashMap<>();
        InvocationHandler handler = (proxy, method, args) -> switch (method.getName()) {
            case "prepareStatement" -> args.length == 1 ? reusable(cache.computeIfAbsent((String) args[0], sql -> {
                try {
                    return c.prepareStatement(sql);
                } catch (java.sql.SQLException e) {
                    throw new CacheMiss(e);
                }
            })) : call(c, method, args);
            case "close" -> {
                for (PreparedStatement ps : cache.values()) {
                    ps.close();
                }
                cache.clear();
                yield call(c, method, args);
            }
            default -> call(c, method, args);
        };
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    try {
                        return handler.invoke(proxy, method, args);
                    } catch (CacheMiss miss) {
                        throw miss.getCause(); // the SQLException from compiling the statement
                    }
                });
    }

    /** The cached statement as its user sees it: closing it clears its parameters and keeps it. */
    private static PreparedStatement reusable(PreparedStatement ps) {
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close") && method.getParameterCount() == 0) {
                        ps.clearParameters();
                        ps.clearBatch();
                        return null;
                    }
                    return call(ps, method, args);
                });
    }

    private static Object call(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Carries a compile error out of computeIfAbsent. */
    private static final class CacheMiss extends RuntimeException {
        CacheMiss(java.sql.SQLException cause) {
            super(cause);
        }
    }
}
