/**
 * The kit the HTTP providers are built on, not API (the module does not export it): {@link
 * dev.threadline.models.internal.HttpChatModel}, the base that sends each call; {@link
 * dev.threadline.models.internal.HttpTransport} (retries, timeouts), {@link
 * dev.threadline.models.internal.ModelErrors}, {@link dev.threadline.models.internal.SseReader}, and the
 * rules every provider applies to a reply ({@link dev.threadline.models.internal.Replies}) and the
 * context windows of the model families ({@link dev.threadline.models.internal.ContextWindows}).
 * Dependencies point one way: {@code Models} → the providers → this kit → {@code models.http} (the settings).
 */
package dev.threadline.models.internal;
