package dev.threadline.store.tck;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Checks that a backend runs the whole contract: no contract test can be overridden (they are all
 * public and final), none is disabled or conditional, and the backend's test class itself is neither
 * abstract nor disabled. Each backend calls {@link #problems} from a small test of its own.
 * Stateless: safe from any thread.
 */
public final class ContractGuard {
    private static final String CONDITIONS = "org.junit.jupiter.api.condition.";

    /**
     * Every part of the contract, from the root of the chain to its end. Each extends the one before
     * it, so a backend extending {@link StateStoreContract} inherits all of them; {@link #problems}
     * checks that the chain is unbroken and that no class outside this list declares contract tests.
     */
    public static final List<Class<? extends StoreContractSupport>> SUITES = List.of(JournalContract.class,
            ConcurrencyContract.class, LineageContract.class, LeaseContract.class, CommandLogContract.class,
            InterruptRequestContract.class, TailContract.class, PagingContract.class, TenancyContract.class, StateStoreContract.class);

    private ContractGuard() {}

    /** The contract's test methods, from every part of it, sorted by name. */
    public static List<Method> contractTests() {
        List<Method> tests = new ArrayList<>();
        for (Class<?> c = StateStoreContract.class; c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Test.class)) {
                    tests.add(m);
                }
            }
        }
        tests.sort(Comparator.comparing(Method::getName));
        return tests;
    }

    /** What would let {@code backendTest} skip part of the contract; empty when it runs all of it. */
    public static List<String> problems(Class<? extends StateStoreContract> backendTest) {
        List<String> out = new ArrayList<>();
        if (Modifier.isAbstract(backendTest.getModifiers())) {
            out.add(backendTest.getName() + " is abstract, so JUnit never runs it");
        }
        for (Class<?> c = backendTest; c != Object.class; c = c.getSuperclass()) {
            for (String a : skipping(c)) {
                out.add(c.getName() + " is annotated " + a);
            }
        }
        for (int i = 0; i < SUITES.size(); i++) {
            Class<?> expectedParent = i == 0 ? StoreContractSupport.class : SUITES.get(i - 1);
            if (SUITES.get(i).getSuperclass() != expectedParent) {
                out.add(SUITES.get(i).getSimpleName() + " must extend " + expectedParent.getSimpleName()
                        + " so that every backend runs it");
            }
        }
        for (Method m : contractTests()) {
            if (!SUITES.contains(m.getDeclaringClass())) {
                out.add(m.getDeclaringClass().getSimpleName() + "." + m.getName() + " is declared outside the suites");
            }
            String name = m.getDeclaringClass().getSimpleName() + "." + m.getName();
            if (!Modifier.isPublic(m.getModifiers()) || !Modifier.isFinal(m.getModifiers())) {
                out.add(name + " must be public final so no backend can override it away");
            }
            skipping(m).forEach(a -> out.add(name + " is annotated " + a));
        }
        for (Method m : backendTest.getDeclaredMethods()) {
            if (!m.isAnnotationPresent(Test.class) && !skipping(m).isEmpty()) {
                out.add(backendTest.getSimpleName() + "." + m.getName() + " is annotated " + skipping(m));
            }
        }
        return out;
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
