package dev.threadline.store.sqlite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Counts a canary's bytes in a store's files, for the erasure and encryption tests. Stateless. */
final class CanaryScan {
    private CanaryScan() {}

    /** How many times {@code canary}'s UTF-8 bytes appear in the files directly under {@code dir} (the database, its WAL, its shm). */
    static int occurrences(Path dir, String canary) throws IOException {
        String needle = new String(canary.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1); // one char per byte
        int n = 0;
        List<Path> files = new ArrayList<>();
        try (var s = Files.list(dir)) {
            s.forEach(files::add);
        }
        for (Path f : files) {
            String hay = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
            for (int i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
                n++;
            }
        }
        return n;
    }
}
