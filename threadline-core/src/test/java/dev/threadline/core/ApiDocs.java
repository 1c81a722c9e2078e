package dev.threadline.core;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.doctree.DocTree;
import com.sun.source.doctree.ThrowsTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Checks the Javadoc of the public API of Threadline's library modules (those {@code threadline-bom}
 * lists) from their sources, with the JDK's own parser: every public type, method, constructor and
 * field, and every protected one of a public type, has a comment with a summary sentence; every public
 * class and interface says how it behaves under threads (records, enums, exceptions and annotations are
 * values or need no such sentence); every exception a method declares has a {@code @throws}. Packages
 * named {@code internal} are not API (core's module-info exports them to Threadline's own modules only).
 * Methods that override are documented by what they override, a record's compact constructor by the record's comment,
 * and the TCK's contract tests (methods JUnit or jqwik runs) by their names.
 *
 * <p>Run from the repository root to print the figures: {@code java threadline-core/src/test/java/dev/threadline/core/ApiDocs.java}
 * ({@code --list} also lists every gap). {@code PublicApiJavadocTest} fails the build on any gap.
 */
public final class ApiDocs {
    /** Annotations of methods JUnit or jqwik runs (the TCK's contract tests): their names are the specification. */
    static final Set<String> TEST_ENGINE = Set.of("Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "BeforeEach", "AfterEach",
            "BeforeAll", "AfterAll", "Property", "Example", "BeforeProperty", "AfterProperty", "BeforeTry", "AfterTry");
    static final Pattern THREADS = Pattern.compile("(?i)thread|immutable|stateless|concurren|a value\\b");

    /** One finding: what lacks what, where. */
    record Gap(String module, String where, String what) {
        @Override
        public String toString() {
            return module + ": " + where + " — " + what;
        }
    }

    /** Per module: how many API elements there are and how many are documented, and the gaps. */
    record Report(String module, int elements, int documented, List<Gap> gaps) {}

    private ApiDocs() {}

    /** The library modules {@code root/threadline-bom/pom.xml} lists. */
    static List<String> libraryModules(Path root) {
        try {
            String bom = Files.readString(root.resolve("threadline-bom/pom.xml"));
            Matcher m = Pattern.compile("<artifactId>(threadline-[^<]+)</artifactId>").matcher(bom);
            List<String> modules = new ArrayList<>();
            while (m.find()) {
                if (!m.group(1).equals("threadline-bom")) {
                    modules.add(m.group(1));
                }
            }
            return modules;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Report scan(Path root, String module) {
        Path src = root.resolve(module).resolve("src/main/java").toAbsolutePath().normalize();
        List<Path> files;
        try (Stream<Path> s = Files.walk(src)) {
            files = s.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.java") && !p.getFileName().toString().equals("package-info.java"))
                    .filter(p -> !src.relativize(p).toString().replace('\\', '/').matches("(.*/)?internal/.*"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = javac.getStandardFileManager(null, null, null);
        JavacTask task = (JavacTask) javac.getTask(null, fm, d -> {}, List.of("-proc:none"), null, fm.getJavaFileObjectsFromPaths(files));
        DocTrees docs = DocTrees.instance(task);
        int[] counts = new int[2];
        List<Gap> gaps = new ArrayList<>();
        try {
            for (CompilationUnitTree cu : task.parse()) {
                String file = src.relativize(Path.of(cu.getSourceFile().toUri())).toString();
                for (Tree t : cu.getTypeDecls()) {
                    if (t instanceof ClassTree c && c.getModifiers().getFlags().contains(Modifier.PUBLIC)) {
                        type(module, file, new TreePath(new TreePath(cu), c), c, docs, counts, gaps);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Report(module, counts[0], counts[1], gaps);
    }

    private static String at(String file, TreePath path, DocTrees docs) {
        long pos = docs.getSourcePositions().getStartPosition(path.getCompilationUnit(), path.getLeaf());
        return file + ":" + path.getCompilationUnit().getLineMap().getLineNumber(pos);
    }

    private static void type(String module, String file, TreePath path, ClassTree c, DocTrees docs, int[] counts, List<Gap> gaps) {
        String name = c.getSimpleName().toString();
        DocCommentTree doc = docs.getDocCommentTree(path);
        if (check(module, at(file, path, docs) + " " + kind(c) + " " + name, doc, counts, gaps)) {
            boolean value = c.getKind() == Tree.Kind.RECORD || c.getKind() == Tree.Kind.ENUM || c.getKind() == Tree.Kind.ANNOTATION_TYPE
                    || name.endsWith("Exception") || name.endsWith("Error");
            if (!value && !THREADS.matcher(doc.toString()).find()) {
                gaps.add(new Gap(module, at(file, path, docs) + " " + kind(c) + " " + name, "says nothing about threads (thread-safe? immutable?)"));
            }
        }
        boolean iface = c.getKind() == Tree.Kind.INTERFACE || c.getKind() == Tree.Kind.ANNOTATION_TYPE;
        for (Tree member : c.getMembers()) {
            TreePath mp = new TreePath(path, member);
            switch (member) {
                case ClassTree nested -> {
                    if (visible(nested.getModifiers().getFlags(), iface)) {
                        type(module, file, mp, nested, docs, counts, gaps);
                    }
                }
                case MethodTree m -> {
                    Set<Modifier> flags = m.getModifiers().getFlags();
                    boolean overrides = m.getModifiers().getAnnotations().stream().anyMatch(a -> a.getAnnotationType().toString().equals("Override"));
                    boolean runByTheEngine = m.getModifiers().getAnnotations().stream()
                            .anyMatch(a -> TEST_ENGINE.contains(a.getAnnotationType().toString().replaceFirst(".*\\.", "")));
                    boolean compact = c.getKind() == Tree.Kind.RECORD && m.getName().contentEquals("<init>") && compact(mp, m, docs);
                    if (!visible(flags, iface) || overrides || compact || runByTheEngine) {
                        continue;
                    }
                    String what = m.getName().contentEquals("<init>") ? "constructor " + name : "method " + m.getName();
                    String where = at(file, mp, docs) + " " + name + "." + what.substring(what.indexOf(' ') + 1) + "(" + m.getParameters().size() + ")";
                    DocCommentTree d = docs.getDocCommentTree(mp);
                    if (check(module, where, d, counts, gaps)) {
                        for (ExpressionTree thrown : m.getThrows()) {
                            String simple = thrown.toString().substring(thrown.toString().lastIndexOf('.') + 1);
                            boolean tagged = d.getBlockTags().stream().anyMatch(tag -> tag.getKind() == DocTree.Kind.THROWS || tag.getKind() == DocTree.Kind.EXCEPTION
                                    ? ((ThrowsTree) tag).getExceptionName().toString().endsWith(simple) : false);
                            if (!tagged) {
                                gaps.add(new Gap(module, where, "declares " + simple + " without a @throws"));
                            }
                        }
                    }
                }
                case VariableTree v -> {
                    boolean constant = c.getKind() == Tree.Kind.ENUM && v.getInitializer() instanceof NewClassTree n
                            && n.getIdentifier().toString().equals(name);
                    if (constant || visible(v.getModifiers().getFlags(), iface)) {
                        check(module, at(file, mp, docs) + " " + name + "." + v.getName(), docs.getDocCommentTree(mp), counts, gaps);
                    }
                }
                default -> { }
            }
        }
    }

    /** A record's compact constructor ({@code Name {...}}, no parameter list in the source): documented by the record's comment. */
    private static boolean compact(TreePath path, MethodTree m, DocTrees docs) {
        var positions = docs.getSourcePositions();
        CompilationUnitTree cu = path.getCompilationUnit();
        long start = positions.getStartPosition(cu, m);
        long body = positions.getStartPosition(cu, m.getBody());
        try {
            return !cu.getSourceFile().getCharContent(true).subSequence((int) start, (int) body).toString().contains("(");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean visible(Set<Modifier> flags, boolean inInterface) {
        return flags.contains(Modifier.PUBLIC) || flags.contains(Modifier.PROTECTED) || (inInterface && !flags.contains(Modifier.PRIVATE));
    }

    private static String kind(ClassTree c) {
        return c.getKind().toString().toLowerCase(java.util.Locale.ROOT).replace("annotation_type", "@interface");
    }

    /** Counts one element; records a gap and returns false when it has no comment with a summary sentence. */
    private static boolean check(String module, String where, DocCommentTree doc, int[] counts, List<Gap> gaps) {
        counts[0]++;
        if (doc == null || doc.getFirstSentence().isEmpty()) {
            gaps.add(new Gap(module, where, "has no Javadoc summary sentence"));
            return false;
        }
        counts[1]++;
        return true;
    }

    /** Prints the figures per module (and with {@code --list}, every gap); run from the repository root. */
    public static void main(String[] args) {
        Path root = Path.of(".");
        boolean list = List.of(args).contains("--list");
        int elements = 0;
        int documented = 0;
        int gaps = 0;
        for (String module : libraryModules(root)) {
            Report r = scan(root, module);
            elements += r.elements();
            documented += r.documented();
            gaps += r.gaps().size();
            System.out.printf("%-28s %4d of %4d API elements documented, %3d gaps%n", module, r.documented(), r.elements(), r.gaps().size());
            if (list) {
                r.gaps().forEach(g -> System.out.println("  " + g.where() + " — " + g.what()));
            }
        }
        System.out.printf("%-28s %4d of %4d (%.1f %%), %d gaps%n", "all", documented, elements, 100.0 * documented / elements, gaps);
    }
}
