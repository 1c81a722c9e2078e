/**
 * Threadline for LangGraph4j: {@link dev.threadline.langgraph4j.ThreadlineSaver}, a checkpoint saver on
 * Threadline sessions whose writes do not grow with the history. Its one package is the API.
 */
module dev.threadline.langgraph4j {
    requires transitive dev.threadline.core;
    // langgraph4j-core publishes no module name: its automatic name comes from the jar's file name
    requires transitive langgraph4j.core;

    exports dev.threadline.langgraph4j;
}
