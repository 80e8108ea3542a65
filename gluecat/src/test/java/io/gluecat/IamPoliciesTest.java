package io.gluecat;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gluecat.glue.GlueErrors;
import io.gluecat.testkit.Repository;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The IAM policies users attach (docs/iam/) stay in step with the Glue calls gluecat makes: every operation
 * of {@link GlueErrors.Call} is allowed to the writer, the reader may only read, and every resource has the ARN
 * shape AWS authorizes against. Whether AWS (or an emulator enforcing IAM) accepts them is for a Glue with IAM.
 */
class IamPoliciesTest {
  private static final Pattern GLUE_ARN = Pattern.compile(
      "arn:aws:glue:REGION:ACCOUNT_ID:(catalog|database/[^/]+|table/[^/]+/[^/]+|userDefinedFunction/[^/]+/[^/]+)");
  private static final Pattern S3_ARN = Pattern.compile("arn:aws:s3:::BUCKET(/PREFIX/\\*)?");

  @Test
  void theWriterMayMakeEveryGlueCallGluecatMakes() throws IOException {
    Set<String> writer = actions("writer.json");
    for (GlueErrors.Call call : GlueErrors.Call.values()) {
      assertTrue(writer.contains("glue:" + call.operation()), "docs/iam/writer.json lacks glue:" + call.operation());
    }
    assertTrue(actions("reader.json").stream().filter(a -> a.startsWith("glue:")).allMatch(writer::contains));
  }

  @Test
  void theReaderOnlyReads() throws IOException {
    for (String action : actions("reader.json")) {
      assertTrue(action.startsWith("glue:Get") || action.equals("s3:GetObject") || action.equals("s3:ListBucket")
          || action.equals("s3:GetBucketLocation"), "reader.json allows more than reading: " + action);
    }
    assertTrue(actions("reader.json").contains("glue:GetPartitions"), "Hive-format tables' partitions are read");
  }

  @Test
  void theToolsMayRepairEntriesAndPartitions() throws IOException {
    Set<String> tools = actions("tools.json");
    for (String needed : List.of("glue:GetTables", "glue:UpdateTable", "glue:CreateTable", "glue:GetPartitions",
        "glue:BatchCreatePartition", "glue:BatchDeletePartition")) {
      assertTrue(tools.contains(needed), "docs/iam/tools.json lacks " + needed);
    }
    assertFalse(tools.contains("glue:DeleteTable"), "the tools never delete an entry");
  }

  @Test
  void everyStatementAllowsGlueOrS3ActionsOnTheirOwnResources() throws IOException {
    for (String file : List.of("reader.json", "writer.json", "tools.json")) {
      JsonNode policy = policy(file);
      assertEquals("2012-10-17", policy.path("Version").asText(), file);
      for (JsonNode statement : policy.path("Statement")) {
        assertEquals("Allow", statement.path("Effect").asText(), file);
        List<String> actions = strings(statement.path("Action"));
        List<String> resources = strings(statement.path("Resource"));
        assertFalse(actions.isEmpty() || resources.isEmpty(), file + ": " + statement);
        boolean glue = actions.stream().allMatch(a -> a.startsWith("glue:"));
        boolean s3 = actions.stream().allMatch(a -> a.startsWith("s3:"));
        assertTrue(glue || s3, file + " mixes services in one statement: " + actions);
        for (String resource : resources) {
          assertTrue((glue ? GLUE_ARN : S3_ARN).matcher(resource).matches(), file + ": resource " + resource);
        }
        if (glue) {
          assertTrue(resources.contains("arn:aws:glue:REGION:ACCOUNT_ID:catalog"), file + ": Glue authorizes "
              + "every call against the catalog too: " + statement);
        }
      }
    }
  }

  @Test
  void theReadmeListsTheWritersGlueActionsAndLinksThePolicies() throws IOException {
    String readme = Files.readString(Repository.root().resolve("README.md"));
    assertTrue(readme.contains("docs/iam/"), "README.md links docs/iam/");
    for (String action : actions("writer.json")) {
      if (action.startsWith("glue:")) {
        String name = action.substring("glue:".length());
        assertTrue(readme.contains(name) || readme.contains(name.replaceAll("s$", "") + "(s)"),
            "README.md's permission list lacks " + name);
      }
    }
  }

  private static Set<String> actions(String file) throws IOException {
    Set<String> actions = new TreeSet<>();
    for (JsonNode statement : policy(file).path("Statement")) {
      actions.addAll(strings(statement.path("Action")));
    }
    return actions;
  }

  private static JsonNode policy(String file) throws IOException {
    return new ObjectMapper().readTree(Repository.root().resolve("docs/iam").resolve(file).toFile());
  }

  private static List<String> strings(JsonNode node) {
    List<String> values = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(n -> values.add(n.asText()));
    } else if (node.isTextual()) {
      values.add(node.asText());
    }
    return values;
  }
}
