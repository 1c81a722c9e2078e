package dev.threadline.core.llm;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool as the model is told about it: name, description, JSON Schema of its arguments. */
public record ToolSpec(String name, String description, JsonNode inputSchema) {
}
