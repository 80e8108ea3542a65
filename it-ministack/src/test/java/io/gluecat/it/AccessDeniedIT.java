package io.gluecat.it;

import static io.gluecat.it.TableLoadIT.messages;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.DeltaCommittedButGlueFailedException;
import io.gluecat.GlueCatalogException;
import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.MiniStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;

/**
 * Access denied in each shape AWS gives it (Glue's JSON AccessDeniedException, the XML 403 an emulator with IAM
 * enforced answers, STS AccessDenied on the catalog's role), injected by the test kit on the statements' Glue
 * calls: the user gets gluecat's exception naming the catalog, the object, the refused IAM action, the resource's
 * ARN and the role, and nothing is left behind (no Glue entry, no directory the statement made, no Delta commit
 * where Glue was asked first), or, where Delta committed first, the documented recovery.
 */
class AccessDeniedIT extends MiniStackSparkTest {
  private static final String ROLE = "arn:aws:iam::000000000000:role/gluecat-reader";
  private static String catalog;
  private static String root;
  private static String db;

  @BeforeAll
  static void catalogWithARole() {
    Map<String, String> options = ministackOptions();
    options.put("role.arn", ROLE);
    catalog = newCatalog(options);
    root = newDirectory("denied");
    db = newDatabase(root + "/db");
    sql("SHOW TABLES IN " + catalog + "." + db); // the role is assumed before any fault is armed
  }

  private static String arn(String resource) {
    return "arn:aws:glue:" + MiniStack.REGION.id() + ":000000000000:" + resource;
  }

  /** Every file and directory under the test's root. */
  private static Set<String> paths() {
    try (Stream<Path> walk = Files.walk(Paths.get(root.substring("file:".length())))) {
      return walk.map(Path::toString).collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs the statement under the fault; expects gluecat's exception with every fragment, and returns its messages. */
  private static String refused(Fault fault, Executable statement, String... fragments) {
    Throwable e;
    try (Fault.Handle h = GlueFaults.inject(fault)) {
      e = assertThrows(Throwable.class, statement);
      assertTrue(h.fired() > 0, "the fault fired: " + messages(e));
    }
    String all = messages(e);
    assertTrue(all.contains(GlueCatalogException.class.getName()) || e instanceof GlueCatalogException, all);
    for (String fragment : fragments) {
      assertTrue(all.contains(fragment), "expected '" + fragment + "' in: " + all);
    }
    assertTrue(all.contains("Access denied: catalog '" + catalog + "'") || all.contains("Access denied: catalog '"), all);
    assertFalse(all.contains(MiniStack.SECRET_ACCESS_KEY), all);
    assertFalse(all.contains(MiniStack.ACCESS_KEY_ID), all);
    return all;
  }

  private static void assertNoEntry(String table) {
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, table));
  }

  @Test
  void createTableRefusedAsJsonLeavesNoEntryAndNoDirectory() {
    Set<String> before = paths();
    refused(Fault.glue("CreateTable").accessDenied().build(),
        () -> sql("CREATE TABLE " + catalog + "." + db + ".t_json (id BIGINT) USING parquet"),
        "catalog '" + catalog + "'", "table '" + db + ".t_json'", "glue:CreateTable", arn("table/" + db + "/t_json"),
        "role " + ROLE, "Nothing was left behind");
    assertNoEntry("t_json");
    assertEquals(before, paths(), "no directory the statement made is left");
  }

  @Test
  void ctasRefusedAsAnXml403RemovesTheFilesItWrote() {
    Set<String> before = paths();
    refused(Fault.glue("CreateTable").accessDeniedAsXml().build(),
        () -> sql("CREATE TABLE " + catalog + "." + db + ".t_xml USING parquet AS SELECT id FROM range(5)"),
        "table '" + db + ".t_xml'", "glue:CreateTable", arn("table/" + db + "/t_xml"), "HTTP 403",
        "removed the files it had written");
    assertNoEntry("t_xml");
    assertEquals(before, paths());
  }

  @Test
  void saveAsTableRefusedLeavesNothing() {
    Set<String> before = paths();
    refused(Fault.glue("CreateTable").accessDeniedAsXml().build(),
        () -> spark().range(3).write().format("parquet").saveAsTable(catalog + "." + db + ".t_save"),
        "glue:CreateTable", arn("table/" + db + "/t_save"));
    assertNoEntry("t_save");
    assertEquals(before, paths());
  }

  @Test
  void aLocationThatExistedStaysAndOnlyTheStatementsFilesGo() throws IOException {
    String location = newDirectory("kept");
    Set<String> before = paths();
    refused(Fault.glue("CreateTable").accessDenied().build(),
        () -> sql("CREATE TABLE " + catalog + "." + db + ".t_kept USING parquet LOCATION '" + location
            + "' AS SELECT id FROM range(3)"),
        "glue:CreateTable", arn("table/" + db + "/t_kept"));
    assertNoEntry("t_kept");
    assertEquals(before, paths());
    Path kept = Paths.get(location.substring("file:".length()));
    assertTrue(Files.isDirectory(kept), "the directory that was there before stays");
    try (Stream<Path> files = Files.list(kept)) {
      assertEquals(0, files.count(), "the statement's files are gone");
    }
  }

  @Test
  void createNamespaceRefusedLeavesNoDatabaseAndNoDirectory() {
    Map<String, String> options = ministackOptions();
    options.put("role.arn", ROLE);
    String warehouse = root + "/warehouse";
    options.put("warehouse", warehouse);
    String withWarehouse = newCatalog(options);
    sql("SHOW NAMESPACES IN " + withWarehouse);
    String name = unique("nsdb");
    Set<String> before = paths();
    refused(Fault.glue("CreateDatabase").accessDeniedAsXml().build(),
        () -> sql("CREATE NAMESPACE " + withWarehouse + "." + name),
        "catalog '" + withWarehouse + "'", "database '" + name + "'", "glue:CreateDatabase",
        arn("database/" + name), "nothing was written to Glue");
    assertThrows(EntityNotFoundException.class, () -> GLUE.getDatabase(r -> r.name(name)));
    assertEquals(before, paths());
  }

  @Test
  void alterRefusedLeavesTheEntryAsItWas() {
    sql("CREATE TABLE " + catalog + "." + db + ".t_alter (id BIGINT) USING parquet");
    String version = glueTable(db, "t_alter").versionId();
    refused(Fault.glue("UpdateTable").accessDenied().build(),
        () -> sql("ALTER TABLE " + catalog + "." + db + ".t_alter SET TBLPROPERTIES ('stage' = 'prod')"),
        "table '" + db + ".t_alter'", "glue:UpdateTable", arn("table/" + db + "/t_alter"), "role " + ROLE);
    assertEquals(version, glueTable(db, "t_alter").versionId());
    assertNull(glueTable(db, "t_alter").parameters().get("stage"));
  }

  @Test
  void partitionSyncRefusedNamesBatchCreatePartitionAndTheDocumentedState() {
    String all = refused(Fault.glue("BatchCreatePartition").accessDenied().build(),
        () -> sql("CREATE TABLE " + catalog + "." + db + ".t_parts USING parquet PARTITIONED BY (part) "
            + "AS SELECT id, id % 2 AS part FROM range(4)"),
        "glue:BatchCreatePartition", arn("table/" + db + "/t_parts"), "syncing its Glue partition objects failed",
        "PartitionSync.sync(\"" + catalog + "\", \"" + db + ".t_parts\")");
    assertNotNull(glueTable(db, "t_parts"), "the files and the entry are in place, as the message says: " + all);
    assertEquals(0, GLUE.getPartitions(r -> r.databaseName(db).tableName("t_parts")).partitions().size());
  }

  @Test
  void deltaCreateKeepsItsOrderAndItsRecoveryAndNamesThePermission() {
    String all = refused(Fault.glue("CreateTable").accessDenied().build(),
        () -> sql("CREATE TABLE " + catalog + "." + db + ".t_delta (id BIGINT) USING delta"),
        DeltaCommittedButGlueFailedException.class.getName(), "glue:CreateTable", arn("table/" + db + "/t_delta"),
        "Register it with: CREATE TABLE " + catalog + "." + db + ".t_delta USING delta LOCATION '");
    assertNoEntry("t_delta");
    java.util.regex.Matcher register = java.util.regex.Pattern
        .compile("Register it with: (CREATE TABLE \\S+ USING delta LOCATION '[^']*')").matcher(all);
    assertTrue(register.find(), all);
    sql(register.group(1)); // once the permission is granted
    assertEquals(0L, spark().table(catalog + "." + db + ".t_delta").count());
  }

  @Test
  void assumeRoleRefusedNamesStsAndTheRoleAndWritesNothing() {
    Map<String, String> options = ministackOptions();
    options.put("role.arn", ROLE);
    String fresh = newCatalog(options); // its role not assumed yet
    Set<String> before = paths();
    refused(Fault.sts("AssumeRole").accessDenied().always().build(),
        () -> sql("CREATE TABLE " + fresh + "." + db + ".t_sts (id BIGINT) USING delta"),
        "catalog '" + fresh + "'", "sts:AssumeRole", ROLE, "no Glue call was made");
    assertNoEntry("t_sts");
    assertEquals(before, paths(), "no Delta commit: Glue was asked first");
  }
}
