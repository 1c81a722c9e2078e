/**
 * Threadline for Google ADK: {@link dev.threadline.adk.ThreadlineSessionService}, a durable
 * {@code BaseSessionService} on Threadline sessions. Its one package is the API.
 */
module dev.threadline.adk {
    requires transitive dev.threadline.core;
    // google-adk publishes no module name: its automatic name comes from the jar's file name
    requires transitive google.adk;
    requires transitive io.reactivex.rxjava3;

    exports dev.threadline.adk;
}
