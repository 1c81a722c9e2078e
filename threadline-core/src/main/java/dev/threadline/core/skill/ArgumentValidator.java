package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.dialect.DialectId;
import com.networknt.schema.path.PathType;
import dev.threadline.core.error.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Checks skill arguments against the skill's JSON Schema (draft 2020-12), and skills themselves at
 * registration. One instance serves every session: it is thread-safe and caches each skill's compiled
 * schema.
 *
 * <p>Schemas may only refer to themselves ({@code $ref: "#/..."}) and to the bundled draft 2020-12
 * meta-schemas: nothing is ever fetched over the network.
 */
public final class ArgumentValidator {
    /** A validator with its own schema cache. */
    public ArgumentValidator() {}

    /** What a skill name must look like (the common denominator of the providers' tool-name rules). */
    public static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

    private static final SchemaRegistryConfig CONFIG = SchemaRegistryConfig.builder()
            .locale(Locale.ENGLISH)
            .pathType(PathType.LEGACY)
            .build();

    /**
     * Draft 2020-12, loading only what the library bundles: the draft's own meta-schemas (mapped to the
     * class path) and class-path resources; any other address is refused before it is looked up.
     */
    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            b -> b.schemaRegistryConfig(CONFIG).schemaLoader(loader -> loader.fetchRemoteResources(false)
                    .allow(iri -> bundled(iri.toString()))));
    private final Map<String, Compiled> cache = new ConcurrentHashMap<>();
    private volatile Schema metaSchema;

    /** A compiled schema and the schema node it was compiled from (to notice a skill replaced under the same name). */
    private record Compiled(JsonNode source, Schema schema) {}

    private static boolean bundled(String iri) {
        return iri.startsWith("classpath:") || iri.startsWith(META_SCHEMAS);
    }

    private static final String META_SCHEMAS = DialectId.DRAFT_2020_12.substring(0,
            DialectId.DRAFT_2020_12.length() - "schema".length());

    /**
     * The problems with {@code arguments} for {@code skill}, each naming the field at fault (e.g.
     * {@code $.expression: is missing but it is required}); empty when they are valid.
     *
     * @throws InvalidInputException when the skill's own schema is unusable (registration refuses such skills)
     */
    public List<String> validate(Skill skill, JsonNode arguments) {
        if (arguments == null || arguments.isMissingNode() || arguments.isNull()) {
            return List.of("$: arguments are missing; expected a JSON object");
        }
        if (!arguments.isObject()) {
            return List.of("$: arguments must be a JSON object, got " + SchemaChecks.typeName(arguments));
        }
        return describe(compiled(skill).validate(Jackson3.tree(arguments)));
    }

    /** Like {@link #validate} but throws {@link InvalidInputException} naming the skill and every problem. */
    public void requireValid(Skill skill, JsonNode arguments) {
        List<String> problems = validate(skill, arguments);
        if (!problems.isEmpty()) {
            throw new InvalidInputException("arguments of skill '" + skill.name() + "'", String.join("; ", problems));
        }
    }

    /**
     * The problems that keep {@code skill} from being registered: a name outside
     * {@code [a-zA-Z0-9_-]{1,64}}, a blank description, or an input schema that is not a valid draft
     * 2020-12 schema of an object. Empty when it can be registered.
     */
    public List<String> check(Skill skill) {
        List<String> problems = new ArrayList<>();
        String name = skill.name();
        if (name == null || !NAME.matcher(name).matches()) {
            problems.add("name " + (name == null ? "is missing" : "'" + name + "' does not match [a-zA-Z0-9_-]{1,64}"));
        }
        String description = skill.description();
        if (description == null || description.isBlank()) {
            problems.add("description must not be blank");
        }
        JsonNode schema = skill.inputSchema();
        List<String> schemaProblems = SchemaChecks.shape(schema);
        if (schemaProblems.isEmpty()) {
            schemaProblems = describe(metaSchema().validate(Jackson3.tree(schema))).stream()
                    .map(p -> "input schema " + p).toList();
        }
        if (schemaProblems.isEmpty()) {
            try {
                compile(schema);
            } catch (RuntimeException e) {
                schemaProblems = List.of("input schema cannot be compiled: " + e.getMessage());
            }
        }
        problems.addAll(schemaProblems);
        return problems;
    }

    /** Like {@link #check} but throws {@link InvalidInputException} naming the skill and every problem. */
    public void requireRegistrable(Skill skill) {
        List<String> problems = check(skill);
        if (!problems.isEmpty()) {
            throw new InvalidInputException("skill '" + skill.name() + "'", String.join("; ", problems));
        }
    }

    /** The skill's compiled schema, from the cache unless the skill under that name now has another schema. */
    private Schema compiled(Skill skill) {
        JsonNode source = skill.inputSchema();
        Compiled c = cache.get(skill.name());
        if (c != null && c.source().equals(source)) {
            return c.schema();
        }
        List<String> problems = SchemaChecks.shape(source);
        if (!problems.isEmpty()) {
            throw new InvalidInputException("skill '" + skill.name() + "'", String.join("; ", problems));
        }
        try {
            c = new Compiled(source.deepCopy(), compile(source));
        } catch (RuntimeException e) {
            throw new InvalidInputException("skill '" + skill.name() + "'", "input schema cannot be compiled: " + e.getMessage());
        }
        cache.put(skill.name(), c);
        return c.schema();
    }

    private Schema compile(JsonNode schema) {
        Schema compiled = registry.getSchema(Jackson3.tree(schema));
        compiled.initializeValidators();
        return compiled;
    }

    private Schema metaSchema() {
        Schema m = metaSchema;
        if (m == null) {
            m = registry.getSchema(SchemaLocation.of(DialectId.DRAFT_2020_12));
            m.initializeValidators();
            metaSchema = m;
        }
        return m;
    }

    private static List<String> describe(List<Error> messages) {
        return messages.stream().map(SchemaChecks::describe).toList();
    }
}
