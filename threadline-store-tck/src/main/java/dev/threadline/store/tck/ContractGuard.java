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
 */
public final class ContractGuard {
    private static final String CONDITIONS = "org.junit.jupiter.api.condition.";

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
        for (Method m : contractTests()) {
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
