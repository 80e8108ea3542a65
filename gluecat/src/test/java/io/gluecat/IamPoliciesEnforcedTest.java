package io.gluecat;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.config.CatalogOptions;
import io.gluecat.glue.GlueErrors;
import io.gluecat.testkit.IamPolicies;
import io.gluecat.testkit.Moto;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.GlueException;
import software.amazon.awssdk.services.glue.model.PartitionInput;

/**
 * docs/iam/'s policies under an emulator that enforces IAM (moto): each principal holds exactly one policy, and
 * every Glue operation gluecat makes ({@link GlueErrors.Call}) is called as the principal. The writer may make
 * each; the reader only the reads; and a writer without any one of its Glue actions is refused that operation,
 * so none is superfluous. moto matches actions, not Glue resources (it authorizes Glue calls against {@code *}),
 * so the Glue statements' resources become {@code *} here (IamPolicies); IamPoliciesTest checks their ARN shape.
 */
class IamPoliciesEnforcedTest {
  private static final String DB = "sales";
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static Moto moto;

  @BeforeAll
  static void start() {
    // Policies and moto are the same for every Spark line: once per CI run
    org.junit.jupiter.api.Assumptions.assumeTrue(io.gluecat.testkit.Repository.isNewestRowOrNone(),
        "runs on the newest row of matrix.yaml only");
    moto = Moto.withIam();
    try (GlueClient admin = glue(moto.admin())) {
      admin.createDatabase(r -> r.databaseInput(d -> d.name(DB)));
      admin.createTable(r -> r.databaseName(DB).tableInput(t -> t.name("events")
          .partitionKeys(k -> k.name("day").type("string"))
          .storageDescriptor(sd -> sd.location("s3://lake/warehouse/events"))));
    }
  }

  @AfterAll
  static void stop() {
    if (moto != null) {
      moto.close();
    }
  }

  /** Each Glue operation gluecat makes, as one call on {@value #DB} with names of its own. */
  private static Map<String, Consumer<GlueClient>> operations() {
    Map<String, Consumer<GlueClient>> ops = new LinkedHashMap<>();
    ops.put("GetDatabase", g -> g.getDatabase(r -> r.name(DB)));
    ops.put("GetDatabases", g -> g.getDatabases(r -> {}));
    ops.put("GetTable", g -> g.getTable(r -> r.databaseName(DB).name("events")));
    ops.put("GetTables", g -> g.getTables(r -> r.databaseName(DB)));
    ops.put("GetPartitions", g -> g.getPartitions(r -> r.databaseName(DB).tableName("events")));
    ops.put("CreateDatabase", g -> g.createDatabase(r -> r.databaseInput(d -> d.name(fresh("db")))));
    ops.put("UpdateDatabase", g -> g.updateDatabase(r -> r.name(DB).databaseInput(d -> d.name(DB)
        .description("updated"))));
    ops.put("DeleteDatabase", g -> {
      String name = fresh("gone");
      try (GlueClient admin = glue(moto.admin())) {
        admin.createDatabase(r -> r.databaseInput(d -> d.name(name)));
      }
      g.deleteDatabase(r -> r.name(name));
    });
    ops.put("CreateTable", g -> g.createTable(r -> r.databaseName(DB).tableInput(t -> t.name(fresh("t")))));
    ops.put("UpdateTable", g -> g.updateTable(r -> r.databaseName(DB).tableInput(t -> t.name("events")
        .partitionKeys(k -> k.name("day").type("string"))
        .storageDescriptor(sd -> sd.location("s3://lake/warehouse/events")))));
    ops.put("DeleteTable", g -> {
      String name = fresh("dropped");
      try (GlueClient admin = glue(moto.admin())) {
        admin.createTable(r -> r.databaseName(DB).tableInput(t -> t.name(name)));
      }
      g.deleteTable(r -> r.databaseName(DB).name(name));
    });
    ops.put("BatchCreatePartition", g -> {
      String day = fresh("d");
      g.batchCreatePartition(r -> r.databaseName(DB).tableName("events").partitionInputList(PartitionInput.builder()
          .values(day).storageDescriptor(sd -> sd.location("s3://lake/warehouse/events/day=" + day)).build()));
    });
    ops.put("BatchDeletePartition", g -> g.batchDeletePartition(r -> r.databaseName(DB).tableName("events")
        .partitionsToDelete(p -> p.values("none"))));
    ops.put("BatchUpdatePartition", g -> g.batchUpdatePartition(r -> r.databaseName(DB).tableName("events")
        .entries(e -> e.partitionValueList("none").partitionInput(PartitionInput.builder().values("none")
            .storageDescriptor(sd -> sd.location("s3://lake/elsewhere/none")).build()))));
    return ops;
  }

  @Test
  void theOperationsHereAreTheOnesGluecatMakes() {
    List<String> calls = new ArrayList<>();
    for (GlueErrors.Call call : GlueErrors.Call.values()) {
      calls.add(call.operation());
    }
    assertEquals(calls.stream().sorted().toList(), operations().keySet().stream().sorted().toList());
  }

  @Test
  void theWriterMayMakeEveryGlueCall() {
    try (GlueClient writer = glue(moto.principal(fresh("writer"), policy("writer.json", null)))) {
      operations().forEach((op, call) -> assertDoesNotThrow(() -> call.accept(writer), "writer: " + op));
    }
  }

  @Test
  void theReaderMayReadAndIsRefusedEveryWrite() {
    try (GlueClient reader = glue(moto.principal(fresh("reader"), policy("reader.json", null)))) {
      operations().forEach((op, call) -> {
        if (op.startsWith("Get")) {
          assertDoesNotThrow(() -> call.accept(reader), "reader: " + op);
        } else {
          assertRefused(reader, op, call);
        }
      });
    }
  }

  @Test
  void theToolsMayAuditRepairAndRegisterButNotDelete() {
    try (GlueClient tools = glue(moto.principal(fresh("tools"), policy("tools.json", null)))) {
      operations().forEach((op, call) -> {
        // the tools never move a partition (BatchUpdatePartition is SET LOCATION's alone)
        if (op.startsWith("Delete") || op.endsWith("Database") && !op.startsWith("Get")
            || op.equals("BatchUpdatePartition")) {
          assertRefused(tools, op, call);
        } else {
          assertDoesNotThrow(() -> call.accept(tools), "tools: " + op);
        }
      });
    }
  }

  @Test
  void everyGlueActionOfTheWriterIsNeeded() {
    operations().forEach((op, call) -> {
      try (GlueClient without = glue(moto.principal(fresh("writer-without-" + op), policy("writer.json", op)))) {
        assertRefused(without, op, call);
      }
    });
  }

  @Test
  void gluecatNamesTheActionMotoRefused() {
    try (GlueClient reader = glue(moto.principal(fresh("named"), policy("reader.json", null)))) {
      GlueException denied = assertThrows(GlueException.class,
          () -> reader.createTable(r -> r.databaseName(DB).tableInput(t -> t.name("orders"))));
      Exception e = new GlueErrors(CatalogOptions.parse("glue_prod", Map.of("region", Moto.REGION)))
          .translate(GlueErrors.Call.CREATE_TABLE, DB, "orders", denied);
      assertInstanceOf(GlueCatalogException.class, e);
      assertTrue(e.getMessage().startsWith("Access denied: catalog 'glue_prod' may not glue:CreateTable on table "
          + "'sales.orders'"), e.getMessage());
    }
  }

  private static void assertRefused(GlueClient glue, String op, Consumer<GlueClient> call) {
    GlueException refused = assertThrows(GlueException.class, () -> call.accept(glue), op + " was allowed");
    assertEquals(403, refused.statusCode(), op + ": " + refused.getMessage());
  }

  private static String policy(String file, String withoutOperation) {
    return IamPolicies.forMoto(file, DB, "lake", "warehouse", withoutOperation);
  }

  private static String fresh(String prefix) {
    return prefix.toLowerCase() + "_" + NAMES.incrementAndGet();
  }

  private static GlueClient glue(AwsBasicCredentials credentials) {
    return GlueClient.builder().endpointOverride(moto.endpoint()).region(Region.of(Moto.REGION))
        .credentialsProvider(StaticCredentialsProvider.create(credentials)).build();
  }
}
