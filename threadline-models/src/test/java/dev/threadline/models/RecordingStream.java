package dev.threadline.models;

import dev.threadline.core.llm.StreamListener;
import java.util.ArrayList;
import java.util.List;

/** A stream listener for the provider tests: the text pieces, and each argument piece as {@code id/name:piece}. */
public final class RecordingStream implements StreamListener {
    public final List<String> text = new ArrayList<>();
    public final List<String> toolInput = new ArrayList<>();

    @Override
    public void onText(String piece) {
        text.add(piece);
    }

    @Override
    public void onToolInput(String toolUseId, String toolName, String partialJson) {
        toolInput.add(toolUseId + "/" + toolName + ":" + partialJson);
    }
}
