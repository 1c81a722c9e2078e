package dev.threadline.cli;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.PriceTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The {@code --prices FILE} option's file: a price table as JSON (see docs/models.md). Stateless. */
final class PricesFile {
    private PricesFile() {}

    /**
     * The table in {@code file}, or no prices when it is null.
     *
     * @throws ParameterException naming {@code --prices} and the file when it cannot be read or is not a price table
     */
    static PriceTable read(Path file, CommandSpec spec) {
        if (file == null) {
            return PriceTable.NONE;
        }
        try {
            return PriceTable.parse(Json.parse(Files.readString(file), file.toString()));
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--prices: cannot read " + file + ": " + e.getMessage());
        } catch (InvalidInputException e) {
            throw new ParameterException(spec.commandLine(), "--prices " + file + ": " + e.getMessage());
        }
    }
}
