package io.gluecat.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/**
 * The policies of docs/iam/ as a principal on {@link Moto} gets them: placeholders filled, and the resources
 * of the Glue statements widened to {@code *}, since moto authorizes Glue calls against {@code *} (it matches
 * actions, not Glue's ARNs); S3 statements keep their ARNs.
 */
public final class IamPolicies {
  private IamPolicies() {}

  /** {@code docs/iam/<file>} for {@code database} on {@code bucket}/{@code prefix}, as moto matches it. */
  public static String forMoto(String file, String database, String bucket, String prefix) {
    return forMoto(file, database, bucket, prefix, null);
  }

  /** The same without the Glue action {@code glue:<withoutOperation>} (none removed when null). */
  public static String forMoto(String file, String database, String bucket, String prefix,
      String withoutOperation) {
    try {
      String text = Files.readString(Repository.root().resolve("docs/iam").resolve(file))
          .replace("REGION", Moto.REGION).replace("ACCOUNT_ID", Moto.ACCOUNT).replace("DATABASE", database)
          .replace("BUCKET", bucket).replace("PREFIX", prefix);
      ObjectMapper mapper = new ObjectMapper();
      ObjectNode policy = (ObjectNode) mapper.readTree(text);
      ArrayNode statements = mapper.createArrayNode();
      for (JsonNode statement : policy.path("Statement")) {
        ArrayNode actions = mapper.createArrayNode();
        statement.path("Action").forEach(a -> {
          if (!a.asText().equals("glue:" + withoutOperation)) {
            actions.add(a);
          }
        });
        if (actions.isEmpty()) {
          continue;
        }
        ObjectNode copy = ((ObjectNode) statement).deepCopy();
        copy.set("Action", actions);
        if (actions.get(0).asText().startsWith("glue:")) {
          copy.put("Resource", "*");
        }
        statements.add(copy);
      }
      policy.set("Statement", statements);
      return mapper.writeValueAsString(policy);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read docs/iam/" + file, e);
    }
  }

  /** A policy that allows only {@code sts:AssumeRole}: the base credentials of catalogs with {@code role.arn}. */
  public static String assumeRoleOnly() {
    return "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"sts:AssumeRole\","
        + "\"Resource\":\"*\"}]}";
  }
}
