package dev.threadline.core.skill;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaId;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.resource.AllowSchemaLoader;
import dev.threadline.core.InvalidInputException;
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
    /** What a skill name must look like (the common denominator of the providers' tool-name rules). */
    public static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder()
            .locale(Locale.ENGLISH)
            .pathType(com.networknt.schema.PathType.LEGACY)
            .build();

    private final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            b -> b.schemaLoaders(loaders -> loaders.add(
                    new AllowSchemaLoader(iri -> iri.toString().startsWith("classpath:")))));
    private final Map<String, Compiled> cache = new ConcurrentHashMap<>();
    private volatile JsonSchema metaSchema;

    /** A compiled schema and the schema node it was compiled from (to notice a skill replaced under the same name). */
    private record Compiled(JsonNode source, JsonSchema schema) {}

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
        return describe(compiled(skill).validate(arguments));
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
            schemaProblems = describe(metaSchema().validate(schema)).stream()
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
    private JsonSchema compiled(Skill skill) {
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

    private JsonSchema compile(JsonNode schema) {
        JsonSchema compiled = factory.getSchema(schema, CONFIG);
        compiled.initializeValidators();
        return compiled;
    }

    private JsonSchema metaSchema() {
        JsonSchema m = metaSchema;
        if (m == null) {
            m = factory.getSchema(SchemaLocation.of(SchemaId.V202012), CONFIG);
            m.initializeValidators();
            metaSchema = m;
        }
        return m;
    }

    private static List<String> describe(java.util.Set<ValidationMessage> messages) {
        return messages.stream().map(SchemaChecks::describe).toList();
    }
}
