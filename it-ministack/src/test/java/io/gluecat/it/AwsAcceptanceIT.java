package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.Moto;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.GlueClient;

/**
 * bin/aws-acceptance's run (AwsAcceptance) against moto as the account, so that it keeps working between
 * releases: every step passes and nothing is left; a failing step is reported, the others still run, and the
 * clean-up still removes everything.
 */
class AwsAcceptanceIT extends MiniStackSparkTest {
  private static Moto moto;
  private static GlueClient glue;

  @BeforeAll
  static void account() {
    // The program's flow is the same on every line (the statements are each line's suites' business): once per
    // CI run. bin/aws-acceptance runs it on any line.
    org.junit.jupiter.api.Assumptions.assumeTrue(io.gluecat.testkit.Repository.isNewestRowOrNone(),
        "runs on the newest row of matrix.yaml only");
    moto = Moto.start();
    glue = GlueClient.builder().endpointOverride(moto.endpoint()).region(Region.of(Moto.REGION))
        .credentialsProvider(StaticCredentialsProvider.create(moto.admin())).build();
  }

  @AfterAll
  static void close() {
    if (moto != null) {
      glue.close();
      moto.close();
    }
  }

  private record Outcome(int code, String output, String warehouse) {}

  private static Outcome acceptance() {
    String warehouse = newDirectory("acceptance");
    Map<String, String> options = new LinkedHashMap<>();
    options.put("region", Moto.REGION);
    options.put("glue.endpoint", moto.endpoint().toString());
    options.put("sts.endpoint", moto.endpoint().toString());
    options.put("warehouse", warehouse);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = AwsAcceptance.run(spark(), options, new PrintStream(out, true, StandardCharsets.UTF_8));
    return new Outcome(code, out.toString(StandardCharsets.UTF_8), warehouse);
  }

  private static List<String> leftInGlue() {
    return glue.getDatabasesPaginator(r -> {}).stream().flatMap(p -> p.databaseList().stream()).map(d -> d.name())
        .filter(n -> n.startsWith("gluecat_acceptance_")).collect(Collectors.toList());
  }

  private static List<String> leftOnDisk(String warehouse) throws Exception {
    try (Stream<java.nio.file.Path> files = Files.list(Paths.get(warehouse.substring("file:".length())))) {
      return files.map(p -> p.getFileName().toString()).collect(Collectors.toList());
    }
  }

  @Test
  void everyStepPassesAndNothingIsLeft() throws Exception {
    Outcome run = acceptance();
    assertEquals(AwsAcceptance.PASSED, run.code(), run.output());
    assertTrue(run.output().contains("7 of 7 steps passed"), run.output());
    assertTrue(run.output().contains("clean-up OK: nothing left"), run.output());
    assertEquals(List.of(), leftInGlue());
    assertEquals(List.of(), leftOnDisk(run.warehouse()));
  }

  /**
   * operations.md's cross-account run: the base credentials may only assume the catalog's role (the writer
   * policy of docs/iam/), so every step, the count of Glue partitions included, must go through that role.
   */
  @Test
  void withRoleArnEveryStepRunsAsTheRole() throws Exception {
    try (Moto iam = Moto.withIam()) {
      software.amazon.awssdk.auth.credentials.AwsBasicCredentials base =
          iam.principal("acceptance-base", io.gluecat.testkit.IamPolicies.assumeRoleOnly());
      String role = iam.role("acceptance-writer", "acceptance-base",
          io.gluecat.testkit.IamPolicies.forMoto("writer.json", "*", "lake", "w"));
      String savedKey = System.getProperty("aws.accessKeyId");
      String savedSecret = System.getProperty("aws.secretAccessKey");
      System.setProperty("aws.accessKeyId", base.accessKeyId());
      System.setProperty("aws.secretAccessKey", base.secretAccessKey());
      try {
        String warehouse = newDirectory("acceptance-role");
        Map<String, String> options = new LinkedHashMap<>();
        options.put("region", Moto.REGION);
        options.put("glue.endpoint", iam.endpoint().toString());
        options.put("sts.endpoint", iam.endpoint().toString());
        options.put("role.arn", role);
        options.put("warehouse", warehouse);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // a session of its own: its catalog "acceptance" is a new one, with the role
        int code = AwsAcceptance.run(spark().newSession(), options, new PrintStream(out, true, StandardCharsets.UTF_8));
        String output = out.toString(StandardCharsets.UTF_8);
        assertEquals(AwsAcceptance.PASSED, code, output);
        assertTrue(output.contains("7 of 7 steps passed"), output);
        assertEquals(List.of(), leftOnDisk(warehouse));
      } finally {
        restore("aws.accessKeyId", savedKey);
        restore("aws.secretAccessKey", savedSecret);
      }
    }
  }

  private static void restore(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }

  @Test
  void aFailedStepIsReportedAndTheCleanUpStillRuns() throws Exception {
    Outcome run;
    try (Fault.Handle h = GlueFaults.inject(Fault.glue("CreateTable")
        .when(c -> "big_orders".equals(c.tableName())).always().internalError().build())) {
      run = acceptance();
      assertTrue(h.fired() > 0);
    }
    assertEquals(AwsAcceptance.FAILED, run.code(), run.output());
    assertTrue(run.output().matches("(?s).*view\\s+FAIL.*"), run.output());
    assertTrue(run.output().matches("(?s).*gluecat doctor\\s+OK.*"), "later steps still run: " + run.output());
    assertTrue(run.output().contains("6 of 7 steps passed; failed: view"), run.output());
    assertEquals(List.of(), leftInGlue());
    assertEquals(List.of(), leftOnDisk(run.warehouse()));
  }
}
