package dev.threadline.core.log;

import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLogger;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * Threadline's loggers: SLF4J's when the application has an SLF4J binding (a provider on the class or
 * module path, or the {@code slf4j.provider} property), else a logger that discards everything —
 * what SLF4J does then too, but without its "No SLF4J providers were found" warning on every run of
 * an application that chose not to log. Libraries Threadline uses (sqlite-jdbc, json-schema-validator)
 * call SLF4J themselves: {@link #quietWithoutBinding} keeps SLF4J from printing that warning for them.
 * Threadline's modules and extensions (model providers, stores, skills) log through it, so that one
 * rule decides whether anything is printed. Thread-safe.
 */
public final class Logs {
    private static final boolean BOUND = bound();

    private Logs() {}

    /** The logger named after {@code type}. */
    public static Logger get(Class<?> type) {
        return BOUND ? LoggerFactory.getLogger(type) : NOPLogger.NOP_LOGGER;
    }

    /** The logger named {@code name}. */
    public static Logger get(String name) {
        return BOUND ? LoggerFactory.getLogger(name) : NOPLogger.NOP_LOGGER;
    }

    /**
     * When the application has no SLF4J binding (so every log line is discarded anyway) and has not set
     * {@code slf4j.internal.verbosity} itself, sets it to {@code ERROR}, so that SLF4J's
     * "No SLF4J providers were found" warning is not printed when a library Threadline uses first logs.
     * SLF4J's errors are still printed; with a binding this does nothing. Call before the store and
     * the runtime start; idempotent.
     */
    public static void quietWithoutBinding() {
        if (!BOUND && System.getProperty(VERBOSITY) == null) {
            System.setProperty(VERBOSITY, "ERROR");
        }
    }

    private static final String VERBOSITY = "slf4j.internal.verbosity";

    /** Whether the application has an SLF4J binding; looked up once, without instantiating it. */
    private static boolean bound() {
        if (System.getProperty("slf4j.provider") != null) {
            return true;
        }
        try {
            return ServiceLoader.load(SLF4JServiceProvider.class, Logs.class.getClassLoader()).stream().findFirst().isPresent();
        } catch (ServiceConfigurationError e) {
            return true; // a broken binding: let SLF4J report it
        }
    }
}
