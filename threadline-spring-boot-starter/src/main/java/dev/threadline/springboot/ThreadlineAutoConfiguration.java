package dev.threadline.springboot;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.springai.ThreadlineChatMemoryRepository;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Makes, unless the application defines its own: a {@link Threadline} on the store {@code threadline.store} names
 * (closed with the context), a {@link ThreadlineChatMemoryRepository} on tenant {@code threadline.tenant}, and a
 * {@link MessageWindowChatMemory} on that repository. Runs before Spring AI's chat memory auto-configuration, whose
 * in-memory repository then backs off. With Spring Boot's health support on the class path it adds a
 * {@link ThreadlineHealthIndicator}; with Micrometer, {@link ThreadlineMetrics}.
 *
 * <p>Stateless; the beans it makes are thread-safe.
 */
@AutoConfiguration(beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@ConditionalOnClass({Threadline.class, ChatMemoryRepository.class})
@EnableConfigurationProperties(ThreadlineProperties.class)
public class ThreadlineAutoConfiguration {
    /** For Spring. */
    public ThreadlineAutoConfiguration() {
    }

    /**
     * The runtime on {@code threadline.store}; the context closes it (and with it the store).
     *
     * @throws IllegalArgumentException when {@code threadline.store} is blank or names no store on the class path
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Threadline threadline(ThreadlineProperties properties) {
        String url = properties.store();
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("threadline.store is blank: set it to a store URL such as sqlite:threadline.db");
        }
        try {
            return Threadline.builder().store(url.strip()).build();
        } catch (InvalidInputException e) {
            throw new IllegalArgumentException("threadline.store=" + url + ": " + e.getMessage(), e);
        }
    }

    /**
     * Spring AI's chat memory repository on tenant {@code threadline.tenant}.
     *
     * @throws IllegalArgumentException when {@code threadline.tenant} is blank or not a valid tenant id
     */
    @Bean
    @ConditionalOnMissingBean(ChatMemoryRepository.class)
    public ThreadlineChatMemoryRepository threadlineChatMemoryRepository(Threadline threadline, ThreadlineProperties properties) {
        return new ThreadlineChatMemoryRepository(tenant(threadline, properties));
    }

    /**
     * Spring AI's window over the repository, {@code threadline.chat-memory.max-messages} wide.
     *
     * @throws IllegalArgumentException when that width is not positive
     */
    @Bean
    @ConditionalOnMissingBean(ChatMemory.class)
    public ChatMemory threadlineChatMemory(ChatMemoryRepository repository, ThreadlineProperties properties) {
        int max = properties.chatMemory().maxMessages();
        if (max <= 0) {
            throw new IllegalArgumentException("threadline.chat-memory.max-messages must be positive, got " + max);
        }
        return MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(max).build();
    }

    static Tenant tenant(Threadline threadline, ThreadlineProperties properties) {
        String id = properties.tenant();
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("threadline.tenant is blank: set it to a tenant id such as default");
        }
        try {
            return threadline.tenant(id);
        } catch (InvalidInputException e) {
            throw new IllegalArgumentException("threadline.tenant=" + id + ": " + e.getMessage(), e);
        }
    }

    /** The health indicator, when the application has Spring Boot's health support. Stateless. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    public static class Health {
        /** For Spring. */
        public Health() {
        }

        /**
         * The {@code threadline} health contributor.
         *
         * @throws IllegalArgumentException when {@code threadline.tenant} is blank or invalid
         */
        @Bean
        @ConditionalOnMissingBean(name = "threadlineHealthIndicator")
        public ThreadlineHealthIndicator threadlineHealthIndicator(Threadline threadline, ThreadlineProperties properties) {
            return new ThreadlineHealthIndicator(threadline, tenant(threadline, properties));
        }
    }

    /** The gauges and counters, when the application has Micrometer. Stateless. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    public static class Metrics {
        /** For Spring. */
        public Metrics() {
        }

        /**
         * The binder Spring Boot's metrics support binds to each registry.
         *
         * @throws IllegalArgumentException when {@code threadline.tenant} is blank or invalid
         */
        @Bean
        @ConditionalOnMissingBean
        public ThreadlineMetrics threadlineMetrics(Threadline threadline, ThreadlineProperties properties) {
            return new ThreadlineMetrics(threadline, tenant(threadline, properties));
        }
    }
}
