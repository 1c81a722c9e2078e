package dev.threadline.springboot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.springai.ThreadlineChatMemoryRepository;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The starter in a Spring context as an application gets it: properties in, beans out, closed with the context. */
class ThreadlineAutoConfigurationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ThreadlineAutoConfiguration.class));

    @TempDir
    Path dir;

    private String sqlite() {
        return "threadline.store=sqlite:" + dir.resolve("memory.db");
    }

    @Test
    void a_store_property_gives_a_chat_memory_kept_in_that_file_across_contexts() {
        runner.withPropertyValues(sqlite()).run(context -> {
            assertThat(context).hasSingleBean(Threadline.class).hasSingleBean(ChatMemory.class);
            assertThat(context.getBean(ChatMemoryRepository.class)).isInstanceOf(ThreadlineChatMemoryRepository.class);
            context.getBean(ChatMemory.class).add("c1", List.of(new UserMessage("hi"), new AssistantMessage("hello")));
        });
        runner.withPropertyValues(sqlite()).run(context -> // as the application's next start would
                assertThat(context.getBean(ChatMemory.class).get("c1")).containsExactly(new UserMessage("hi"), new AssistantMessage("hello")));
    }

    @Test
    void the_tenant_property_names_where_the_conversations_live() {
        runner.withPropertyValues(sqlite(), "threadline.tenant=acme").run(context -> {
            context.getBean(ChatMemory.class).add("c1", new UserMessage("hi"));
            Threadline tl = context.getBean(Threadline.class);
            assertThat(tl.tenant("acme").sessions().items()).hasSize(1);
            assertThat(tl.defaultTenant().sessions().items()).isEmpty();
        });
    }

    @Test
    void the_window_property_sizes_the_chat_memory() {
        runner.withPropertyValues("threadline.store=memory:", "threadline.chat-memory.max-messages=2").run(context -> {
            ChatMemory memory = context.getBean(ChatMemory.class);
            memory.add("c1", List.of(new UserMessage("1"), new AssistantMessage("2"), new UserMessage("3"), new AssistantMessage("4")));
            assertThat(memory.get("c1")).hasSize(2);
        });
    }

    @Test
    void the_defaults_are_a_sqlite_file_and_the_default_tenant() {
        runner.withBean(Threadline.class, () -> Threadline.builder().store("memory:").build()).run(context -> {
            ThreadlineProperties p = context.getBean(ThreadlineProperties.class);
            assertThat(p.store()).isEqualTo("sqlite:threadline.db");
            assertThat(p.tenant()).isEqualTo("default");
            assertThat(p.chatMemory().maxMessages()).isEqualTo(20);
        });
    }

    @Test
    void the_context_closes_the_runtime_it_made() {
        Threadline[] made = new Threadline[1];
        runner.withPropertyValues(sqlite()).run(context -> made[0] = context.getBean(Threadline.class));
        assertThatThrownBy(() -> made[0].defaultTenant().sessions()).isInstanceOf(RuntimeException.class);
        // and the file is free: another runtime opens it
        runner.withPropertyValues(sqlite()).run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void the_applications_own_beans_win() {
        var own = new InMemoryChatMemoryRepository();
        runner.withPropertyValues("threadline.store=memory:").withBean(ChatMemoryRepository.class, () -> own).run(context -> {
            assertThat(context).doesNotHaveBean(ThreadlineChatMemoryRepository.class);
            context.getBean(ChatMemory.class).add("c1", new UserMessage("hi"));
            assertThat(own.findByConversationId("c1")).hasSize(1);
        });
    }

    @Test
    void bad_properties_fail_the_start_naming_the_property() {
        runner.withPropertyValues("threadline.store=nowhere://x").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("nowhere://x: "));
        runner.withPropertyValues("threadline.store= ").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("threadline.store is blank"));
        runner.withPropertyValues("threadline.store=memory:", "threadline.tenant=no/slash").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("threadline.tenant=no/slash"));
        runner.withPropertyValues("threadline.store=memory:", "threadline.chat-memory.max-messages=0").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("threadline.chat-memory.max-messages"));
    }

    @Test
    void health_is_up_while_the_store_answers_and_down_once_it_is_closed() {
        runner.withPropertyValues(sqlite(), "threadline.tenant=acme").run(context -> {
            HealthIndicator health = context.getBean(HealthIndicator.class);
            var up = health.health();
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("tenant", "acme").containsKey("store");
            context.getBean(Threadline.class).close();
            assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        });
    }

    @Test
    void metrics_count_the_tenants_steps_and_show_what_is_live() {
        runner.withPropertyValues("threadline.store=memory:").run(context -> {
            var registry = new SimpleMeterRegistry();
            context.getBean(MeterBinder.class).bindTo(registry);
            context.getBean(ChatMemory.class).add("c1", new UserMessage("hi"));
            context.getBean(ChatMemory.class).add("c1", new AssistantMessage("hello"));
            assertThat(registry.get("threadline.steps").tag("tenant", "default").counter().count()).isGreaterThanOrEqualTo(2);
            assertThat(registry.get("threadline.events").counter().count()).isGreaterThanOrEqualTo(2);
            assertThat(registry.get("threadline.turns.running").gauge().value()).isZero();
            assertThat(registry.get("threadline.commands.queued").gauge().value()).isZero();
        });
    }

    @Test
    void without_health_support_or_micrometer_those_beans_are_left_out() {
        runner.withPropertyValues("threadline.store=memory:")
                .withClassLoader(new FilteredClassLoader(HealthIndicator.class, MeterBinder.class)).run(context -> {
                    assertThat(context).hasSingleBean(ChatMemory.class);
                    assertThat(context).doesNotHaveBean(ThreadlineHealthIndicator.class).doesNotHaveBean(ThreadlineMetrics.class);
                });
    }

    @Test
    void the_jar_describes_its_properties_for_ides() throws Exception {
        try (var in = ThreadlineProperties.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("spring-configuration-metadata.json in the jar").isNotNull();
            String json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(json).contains("\"threadline.store\"", "\"threadline.tenant\"", "\"threadline.chat-memory.max-messages\"",
                    "\"sqlite:threadline.db\"");
        }
    }
}
