package dev.threadline.store.postgres;

import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.error.InvalidInputException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a store's database is: a {@code postgresql://[user[:password]@]host[:port]/database[?params]}
 * URL (also {@code postgres://}), or a pgjdbc {@code jdbc:postgresql://...} URL passed on as it is.
 * The first form may list several hosts, {@code host1:port1,host2:port2}: pgjdbc then tries them in
 * turn, and with {@code targetServerType=primary} in the parameters connects only to the one that
 * takes writes, so a store finds a promoted standby by itself after a failover.
 * The user and password of the first form become connection properties (pgjdbc's URL has no user
 * part); {@link #shown()} is the URL without the password, for messages. The parameter {@code keys} turns on
 * encryption at rest (ADR 0049), as on SQLite: {@code keys=keyring:FILE} (a keyring file,
 * {@link KeyProviders#keyring}) or {@code keys=env} ({@link KeyProviders#environment()}); it is Threadline's, not
 * pgjdbc's, so it is taken out of the URL pgjdbc gets. Immutable.
 *
 * @param jdbcUrl  the URL pgjdbc connects to
 * @param user     the user from the URL, or null (then pgjdbc's own default or a {@code user} parameter)
 * @param password the password from the URL, or null
 * @param shown    the URL as messages show it (never the password)
 * @param keys     the key provider the {@code keys} parameter names, or null when there is none
 */
record PgUrl(String jdbcUrl, String user, String password, String shown, KeyProvider keys) {
    /** The parameter of encryption at rest. */
    static final String KEYS = "keys";
    private static final String FORM = "expected postgresql://[user[:password]@]host[:port][,host2[:port2]...]/database[?param=value&...]"
            + " or jdbc:postgresql://host[:port]/database; encryption at rest: add keys=env or keys=keyring:FILE";

    /** @throws InvalidInputException naming the store url when it is not one of the two forms */
    static PgUrl parse(String url) {
        if (url == null || url.isBlank()) {
            throw new InvalidInputException("store url", "is missing; " + FORM);
        }
        String given = url.strip();
        KeyProvider keys = keys(given);
        String text = withoutKeys(given);
        if (text.startsWith("jdbc:postgresql:")) {
            return new PgUrl(text, null, null, hidePassword(text), keys);
        }
        String rest;
        if (text.startsWith("postgresql://")) {
            rest = text.substring("postgresql://".length());
        } else if (text.startsWith("postgres://")) {
            rest = text.substring("postgres://".length());
        } else {
            throw new InvalidInputException("store url", "'" + hidePassword(text) + "' is not a PostgreSQL URL; " + FORM);
        }
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String pathAndQuery = slash < 0 ? "" : rest.substring(slash);
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        String query = q < 0 ? "" : pathAndQuery.substring(q);
        String user = null;
        String password = null;
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            String info = authority.substring(0, at);
            authority = authority.substring(at + 1);
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon));
            password = colon < 0 ? null : decode(info.substring(colon + 1));
        }
        if (authority.isBlank()) {
            throw new InvalidInputException("store url", "'" + hidePassword(text) + "' names no host; " + FORM);
        }
        List<String> hosts = new ArrayList<>();
        for (String one : authority.split(",", -1)) {
            hosts.add(hostPort(one, text));
        }
        if (path.length() < 2 || path.indexOf('/', 1) >= 0) {
            throw new InvalidInputException("store url", "'" + hidePassword(text) + "' names no database (one path segment); " + FORM);
        }
        String hostList = String.join(",", hosts);
        String jdbc = "jdbc:postgresql://" + hostList + path + query;
        String shown = "postgresql://" + (user == null ? "" : user + "@") + hostList + path;
        return new PgUrl(jdbc, user, password, shown, keys);
    }

    /**
     * One {@code host[:port]} of the URL's host list, as pgjdbc takes it (an IPv6 address in brackets).
     *
     * @throws InvalidInputException naming the store url when the host is empty or the port no number in 1-65535
     */
    private static String hostPort(String one, String text) {
        String host = one;
        String port = null;
        if (one.startsWith("[")) {
            int close = one.indexOf(']');
            if (close < 0 || (close + 1 < one.length() && one.charAt(close + 1) != ':')) {
                throw new InvalidInputException("store url", "'" + hidePassword(text) + "' has a malformed IPv6 host '" + one + "'; " + FORM);
            }
            host = one.substring(0, close + 1);
            port = close + 1 < one.length() ? one.substring(close + 2) : null;
        } else if (one.indexOf(':') >= 0) {
            host = one.substring(0, one.lastIndexOf(':'));
            port = one.substring(one.lastIndexOf(':') + 1);
        }
        if (host.isBlank() || host.equals("[]") || (!host.startsWith("[") && host.contains(":")) || host.contains("/")) {
            throw new InvalidInputException("store url", "'" + hidePassword(text) + "' names no host" + (one.isBlank() ? "" : " in '" + one + "'")
                    + "; " + FORM);
        }
        if (port != null) {
            int n;
            try {
                n = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 1 || n > 65535) {
                throw new InvalidInputException("store url", "'" + hidePassword(text) + "' is malformed: port '" + port
                        + "' of host '" + host + "' is no number in 1-65535; " + FORM);
            }
        }
        return port == null ? host : host + ":" + port;
    }

    /**
     * The key provider of the {@code keys} parameter (encryption at rest, ADR 0049), or null when there is none.
     *
     * @throws InvalidInputException naming the store url when the value names no key provider, or is given twice
     */
    private static KeyProvider keys(String text) {
        int q = text.indexOf('?');
        if (q < 0) {
            return null;
        }
        KeyProvider keys = null;
        for (String param : text.substring(q + 1).split("&")) {
            if (!param.equals(KEYS) && !param.startsWith(KEYS + "=")) {
                continue;
            }
            if (keys != null) {
                throw new InvalidInputException("store url", "'" + hidePassword(text) + "': keys is given twice; give it once");
            }
            String value = URLDecoder.decode(param.substring(Math.min(param.length(), KEYS.length() + 1)), StandardCharsets.UTF_8);
            if (value.equals("env")) {
                keys = KeyProviders.environment();
            } else if (value.startsWith("keyring:") && value.length() > 8) {
                keys = KeyProviders.keyring(Path.of(value.substring(8)));
            } else {
                throw new InvalidInputException("store url", "'" + hidePassword(text) + "': keys='" + value
                        + "' names no key provider; use keys=env or keys=keyring:FILE");
            }
        }
        return keys;
    }

    /** The URL without its {@code keys} parameter (pgjdbc does not know it). */
    private static String withoutKeys(String text) {
        int q = text.indexOf('?');
        if (q < 0) {
            return text;
        }
        List<String> kept = new ArrayList<>();
        for (String param : text.substring(q + 1).split("&")) {
            if (!param.equals(KEYS) && !param.startsWith(KEYS + "=")) {
                kept.add(param);
            }
        }
        return text.substring(0, q) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The text with anything between "://user:" and "@" and any password parameter masked. */
    private static String hidePassword(String text) {
        return text.replaceAll("(://[^:/@]*:)[^@/]*@", "$1***@").replaceAll("(?i)(password=)[^&]*", "$1***");
    }
}
