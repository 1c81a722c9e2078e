/**
 * Threadline's Spring Boot starter: {@link dev.threadline.springboot.ThreadlineAutoConfiguration} makes a
 * {@code Threadline} runtime, a Spring AI {@code ChatMemoryRepository} and a {@code ChatMemory} on it from the
 * {@code threadline.*} properties ({@link dev.threadline.springboot.ThreadlineProperties}). Open: Spring binds the
 * properties and calls the bean methods reflectively.
 */
open module dev.threadline.springboot {
    requires transitive dev.threadline.core;
    requires transitive dev.threadline.springai;
    // Spring Boot and Micrometer publish automatic module names only
    requires transitive spring.boot;
    requires transitive spring.boot.autoconfigure;
    requires transitive spring.context;
    requires spring.beans;
    requires spring.core;
    // optional: the health indicator and the gauges appear only when the application has them
    requires static spring.boot.health;
    requires static micrometer.core;

    exports dev.threadline.springboot;
}
