package dev.threadline.springboot;

import dev.threadline.core.session.SessionInfo;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code threadline.*} properties.
 *
 * <p>Immutable and thread-safe.
 *
 * @param store      the store's URL ({@code threadline.store}): {@code sqlite:PATH} (the default,
 *                   {@code sqlite:threadline.db} in the working directory), {@code postgresql://…} or
 *                   {@code redis://…} with that store's module on the class path, or {@code memory:}
 * @param tenant     the tenant the chat memory's conversations live in ({@code threadline.tenant}, default
 *                   {@value SessionInfo#DEFAULT_TENANT})
 * @param chatMemory the {@code ChatMemory} bean's window ({@code threadline.chat-memory.max-messages}, default 20)
 */
@ConfigurationProperties("threadline")
public record ThreadlineProperties(@DefaultValue("sqlite:threadline.db") String store,
                                   @DefaultValue(SessionInfo.DEFAULT_TENANT) String tenant,
                                   @DefaultValue ChatMemory chatMemory) {
    /**
     * The properties as bound; blank values are refused when the beans are made, naming the property.
     */
    public ThreadlineProperties {
    }

    /**
     * The {@code threadline.chat-memory.*} properties.
     *
     * <p>Immutable and thread-safe.
     *
     * @param maxMessages how many messages Spring AI's {@code MessageWindowChatMemory} keeps in view (the
     *                    journal keeps every message)
     */
    public record ChatMemory(@DefaultValue("20") int maxMessages) {
    }
}
