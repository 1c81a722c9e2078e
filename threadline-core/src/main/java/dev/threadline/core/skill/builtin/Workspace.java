package dev.threadline.core.skill.builtin;

import dev.threadline.core.error.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The folder the file skills are confined to. Resolves a path the model gave against it and refuses
 * anything that would leave it: absolute paths, {@code ..} that climbs out, and symbolic links whose
 * target is outside (checked by comparing real paths, so a link anywhere along the path counts).
 *
 * <p>The check and the later open are two steps; the file skills open the checked real path without
 * following links in its last element, which closes the simplest swap-a-link race. Someone who can
 * rewrite the workspace's directories while a call runs is outside this model. Immutable and thread-safe.
 */
public final class Workspace {
    private final Path root;

    /** A workspace rooted at {@code root}, which must be an existing directory. */
    public Workspace(Path root) {
        if (root == null) {
            throw new InvalidInputException("workspace", "must not be null");
        }
        try {
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw new InvalidInputException("workspace", "'" + root + "' does not exist or cannot be read");
        }
        if (!Files.isDirectory(this.root)) {
            throw new InvalidInputException("workspace", "'" + root + "' is not a directory");
        }
    }

    /** The real path of the workspace folder. */
    public Path root() {
        return root;
    }

    /** Where a requested path leads. Every kind is an immutable record. */
    public sealed interface Resolution permits Found, Missing, Refused {}

    /** It exists inside the workspace: {@code real} has no links left, {@code shown} is relative to the root. */
    public record Found(Path real, String shown) implements Resolution {}

    /** It would be inside the workspace but does not exist. */
    public record Missing(String shown) implements Resolution {}

    /** It is not allowed; {@code reason} names the path and why. */
    public record Refused(String reason) implements Resolution {}

    /** Resolves {@code requested} (relative to the workspace) without touching anything outside it. */
    public Resolution resolve(String requested) {
        if (requested == null || requested.isBlank()) {
            return new Refused("the path is empty; give a path relative to the workspace, e.g. '.'");
        }
        if (requested.indexOf('\0') >= 0) {
            return new Refused("the path '" + requested.replace("\0", "\\0") + "' contains a NUL character");
        }
        Path given;
        try {
            given = Path.of(requested);
        } catch (InvalidPathException e) {
            return new Refused("'" + requested + "' is not a valid path: " + e.getReason());
        }
        if (given.isAbsolute() || given.getRoot() != null) {
            return new Refused("'" + requested + "' is an absolute path; only paths relative to the workspace are allowed");
        }
        Path lexical = root.resolve(given).normalize();
        if (!lexical.startsWith(root)) {
            return new Refused("'" + requested + "' leads outside the workspace");
        }
        String shown = root.equals(lexical) ? "." : root.relativize(lexical).toString();
        if (!Files.exists(lexical)) {
            return insideViaExistingAncestor(lexical)
                    ? new Missing(shown)
                    : new Refused("'" + requested + "' leads outside the workspace through a symbolic link");
        }
        try {
            Path real = lexical.toRealPath();
            if (!real.startsWith(root)) {
                return new Refused("'" + requested + "' leads outside the workspace through a symbolic link");
            }
            return new Found(real, shown);
        } catch (IOException e) {
            return new Refused("'" + requested + "' cannot be resolved (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** For a path that does not exist: does its deepest existing ancestor really lie inside the workspace? */
    private boolean insideViaExistingAncestor(Path lexical) {
        Path p = lexical;
        while (p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            p = p.getParent();
        }
        if (p == null) {
            return false;
        }
        try {
            return p.toRealPath().startsWith(root);
        } catch (IOException e) {
            return false; // a dangling link, or one we cannot follow: treat as leaving
        }
    }
}
