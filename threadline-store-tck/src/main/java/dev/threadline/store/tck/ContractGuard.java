package dev.threadline.store.tck;

import dev.threadline.core.store.CommandLog;
import dev.threadline.core.store.Journal;
import dev.threadline.core.store.JournalTail;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SharedVariables;
import dev.threadline.core.store.Snapshots;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.TextSearch;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Checks that a backend runs the whole contract: every role the store is composed of has its suite,
 * every suite stands alone and runs, nested, under {@link StateStoreContract}; no contract test can be
 * overridden (they are all public and final), none is disabled or conditional; and the backend's test
 * class is neither abstract nor disabled, nor hides a suite. Each backend calls {@link #problems} from
 * a small test of its own. Stateless: safe from any thread.
 */
public final class ContractGuard {
    private static final String CONDITIONS = "org.junit.jupiter.api.condition.";

    /** Each role {@link StateStore} is composed of, with the suite that tests it. */
    public static final Map<Class<?>, Class<?>> ROLE_SUITES = roleSuites();

    /** The suites of what spans the roles: a session's ancestry, its tenant, its expiry, the store as one object. */
    public static final List<Class<?>> SPANNING_SUITES = List.of(LineageContract.class, TenancyContract.class,
            ExpiryContract.class, LifecycleContract.class);

    /** Every suite of the contract: the roles' first, then those that span them. */
    public static final List<Class<?>> SUITES = Stream.concat(ROLE_SUITES.values().stream(), SPANNING_SUITES.stream()).toList();

    private ContractGuard() {}

    private static Map<Class<?>, Class<?>> roleSuites() {
        Map<Class<?>, Class<?>> m = new LinkedHashMap<>();
        m.put(SessionIndex.class, SessionIndexContract.class);
        m.put(Journal.class, JournalContract.class);
        m.put(JournalTail.class, JournalTailContract.class);
        m.put(TextSearch.class, TextSearchContract.class);
        m.put(Snapshots.class, SnapshotsContract.class);
        m.put(SharedVariables.class, SharedVariablesContract.class);
        m.put(Leases.class, LeasesContract.class);
        m.put(CommandLog.class, CommandLogContract.class);
        m.put(dev.threadline.core.store.HistoryPruning.class, HistoryPruningContract.class);
        m.put(dev.threadline.core.store.DataKeys.class, DataKeysContract.class);
        m.put(dev.threadline.core.store.Resealing.class, ResealingContract.class);
        return Collections.unmodifiableMap(m);
    }

    /** The contract's test methods, from every suite, sorted by name. */
    public static List<Method> contractTests() {
        List<Method> tests = new ArrayList<>();
        for (Class<?> suite : SUITES) {
            tests.addAll(tests(suite));
        }
        tests.sort(Comparator.comparing(Method::getName));
        return tests;
    }

    /** The roles {@link StateStore} is composed of: every interface it extends, directly or not, but {@link AutoCloseable}. */
    public static Set<Class<?>> roles() {
        Set<Class<?>> roles = new LinkedHashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(List.of(StateStore.class.getInterfaces()));
        while (!todo.isEmpty()) {
            Class<?> role = todo.pop();
            if (role != AutoCloseable.class && roles.add(role)) {
                todo.addAll(List.of(role.getInterfaces()));
            }
        }
        return roles;
    }

    /** The nested classes of {@link StateStoreContract} that run the suites, one per suite, in {@link #SUITES}' order. */
    public static List<Class<?>> nestedSuites() {
        return Stream.of(StateStoreContract.class.getDeclaredClasses()).filter(c -> c.isAnnotationPresent(Nested.class))
                .sorted(Comparator.comparing(c -> SUITES.indexOf(c.getSuperclass()))).toList();
    }

    /** What would let {@code backendTest} skip part of the contract; empty when it runs all of it. */
    public static List<String> problems(Class<? extends StateStoreContract> backendTest) {
        List<String> out = contractProblems();
        if (Modifier.isAbstract(backendTest.getModifiers())) {
            out.add(backendTest.getName() + " is abstract, so JUnit never runs it");
        }
        for (Class<?> c = backendTest; c != Object.class; c = c.getSuperclass()) {
            for (String a : skipping(c)) {
                out.add(c.getName() + " is annotated " + a);
            }
        }
        for (Class<?> inner : backendTest.getDeclaredClasses()) {
            for (Class<?> nested : nestedSuites()) {
                if (inner.getSimpleName().equals(nested.getSimpleName())) {
                    out.add(backendTest.getSimpleName() + "." + inner.getSimpleName() + " hides the suite "
                            + nested.getSuperclass().getSimpleName());
                }
            }
        }
        for (Method m : backendTest.getDeclaredMethods()) {
            if (!m.isAnnotationPresent(Test.class) && !skipping(m).isEmpty()) {
                out.add(backendTest.getSimpleName() + "." + m.getName() + " is annotated " + skipping(m));
            }
        }
        return out;
    }

    /** What is wrong with the contract itself, whatever the backend: roles without a suite, suites that do not run. */
    private static List<String> contractProblems() {
        List<String> out = new ArrayList<>();
        for (Class<?> role : roles()) {
            if (!ROLE_SUITES.containsKey(role)) {
                out.add("the role " + role.getSimpleName() + " has no suite");
            }
        }
        for (Class<?> suite : SUITES) {
            if (suite.getSuperclass() != StoreContractSupport.class) {
                out.add(suite.getSimpleName() + " must extend StoreContractSupport itself, so that it runs alone");
            }
            List<Class<?>> running = nestedSuites().stream().filter(n -> n.getSuperclass() == suite).toList();
            if (running.size() != 1) {
                out.add(suite.getSimpleName() + " is run by " + running.size() + " nested classes of StateStoreContract, not 1");
            }
            if (tests(suite).isEmpty()) {
                out.add(suite.getSimpleName() + " holds no tests");
            }
        }
        for (Class<?> nested : nestedSuites()) {
            if (!SUITES.contains(nested.getSuperclass())) {
                out.add("StateStoreContract." + nested.getSimpleName() + " runs no suite of the contract");
            }
            if (Modifier.isAbstract(nested.getModifiers()) || !skipping(nested).isEmpty()) {
                out.add("StateStoreContract." + nested.getSimpleName() + " does not run: abstract or " + skipping(nested));
            }
        }
        for (Class<?> outside : List.of(StoreContractSupport.class, StateStoreContract.class)) {
            tests(outside).forEach(m -> out.add(outside.getSimpleName() + "." + m.getName() + " is declared outside the suites"));
        }
        for (Class<?> nested : StateStoreContract.class.getDeclaredClasses()) {
            tests(nested).forEach(m -> out.add(nested.getSimpleName() + "." + m.getName() + " is declared outside the suites"));
        }
        for (Method m : contractTests()) {
            String name = m.getDeclaringClass().getSimpleName() + "." + m.getName();
            if (!Modifier.isPublic(m.getModifiers()) || !Modifier.isFinal(m.getModifiers())) {
                out.add(name + " must be public final so no backend can override it away");
            }
            skipping(m).forEach(a -> out.add(name + " is annotated " + a));
        }
        return out;
    }

    private static List<Method> tests(Class<?> c) {
        return Stream.of(c.getDeclaredMethods()).filter(m -> m.isAnnotationPresent(Test.class)).toList();
    }

    private static List<String> skipping(AnnotatedElement element) {
        List<String> out = new ArrayList<>();
        for (Annotation a : element.getAnnotations()) {
            Class<? extends Annotation> type = a.annotationType();
            if (type == Disabled.class || type.getName().startsWith(CONDITIONS)) {
                out.add("@" + type.getSimpleName());
            }
        }
        return out;
    }
}
