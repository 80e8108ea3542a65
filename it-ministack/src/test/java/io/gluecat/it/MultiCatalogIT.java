package io.gluecat.it;

import static io.gluecat.it.TableLoadIT.assertMessage;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.MiniStack;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Several catalogs in one session, each with its own Glue account and role. MiniStack ignores CatalogId
 * and checks no credentials, so these tests assert on the requests each catalog sent, as recorded by the
 * test kit's SDK interceptor. Both roles live in MiniStack's default account (an assumed role works in
 * the account of its ARN there), so both catalogs see the databases the tests create.
 */
class MultiCatalogIT extends MiniStackSparkTest {
  private static final String ACCOUNT_A = "111111111111";
  private static final String ACCOUNT_B = "222222222222";
  private static final String ROLE_A = "arn:aws:iam::000000000000:role/gluecat-a";
  private static final String ROLE_B = "arn:aws:iam::000000000000:role/gluecat-b";

  @AfterEach
  void clearFaults() {
    GlueFaults.clear();
  }

  private static String catalog(String account, String role, String externalId) {
    Map<String, String> options = ministackOptions();
    options.put("glue.id", account);
    options.put("role.arn", role);
    options.put("role.external-id", externalId);
    return newCatalog(options);
  }

  @Test
  void everyGlueCallOfEachCatalogCarriesItsOwnAccountAndCredentials() {
    String a = catalog(ACCOUNT_A, ROLE_A, "ext-a");
    String b = catalog(ACCOUNT_B, ROLE_B, "ext-b");
    String db = newDatabase(newDirectory("db"));
    String location = newDirectory("orders");
    spark().range(0, 4).write().format("delta").save(location);
    putEntry(db, "orders", "delta", new StructType().add("id", "long"), List.of(), location, Map.of());
    GlueCallRecorder.clear();

    // one query over both catalogs, then namespace calls of each
    assertEquals(8L, sql("SELECT count(*) FROM (SELECT id FROM " + a + "." + db + ".orders UNION ALL SELECT id FROM "
        + b + "." + db + ".orders)").get(0).getLong(0));
    sql("SHOW NAMESPACES IN " + a);
    sql("SHOW TABLES IN " + b + "." + db);

    List<GlueCall> assumes = GlueCallRecorder.calls(c -> c.isSts() && c.assumeRole() != null && c.succeeded());
    Map<String, String> keyByRole = assumes.stream().collect(Collectors.toMap(c -> c.assumeRole().roleArn(),
        c -> c.assumeRole().returnedAccessKeyId(), (x, y) -> x));
    assertEquals(Set.of(ROLE_A, ROLE_B), keyByRole.keySet(), "each catalog assumed its own role");
    assertNotEquals(keyByRole.get(ROLE_A), keyByRole.get(ROLE_B), "the two roles gave two sets of credentials");
    for (GlueCall assume : assumes) {
      assertEquals(MiniStack.ACCESS_KEY_ID, assume.accessKeyId(), "roles are assumed with the base credentials");
      assertEquals(assume.assumeRole().roleArn().equals(ROLE_A) ? "ext-a" : "ext-b", assume.assumeRole().externalId());
    }

    List<GlueCall> glueCalls = GlueCallRecorder.calls(GlueCall::isGlue);
    assertFalse(glueCalls.isEmpty());
    Set<String> seenAccounts = glueCalls.stream().map(GlueCall::catalogId).collect(Collectors.toSet());
    assertEquals(Set.of(ACCOUNT_A, ACCOUNT_B), seenAccounts, "every Glue call named its catalog's account");
    for (GlueCall call : glueCalls) {
      String role = ACCOUNT_A.equals(call.catalogId()) ? ROLE_A : ROLE_B;
      String catalogName = ACCOUNT_A.equals(call.catalogId()) ? a : b;
      assertEquals(keyByRole.get(role), call.accessKeyId(), "signed with its own role's credentials: " + call);
      assertTrue(call.sessionToken(), "assumed-role credentials carry a session token: " + call);
      assertTrue(call.userAgent().contains("catalog/" + catalogName), call.userAgent());
    }
  }

  @Test
  void awsErrorsNameTheCatalogItsAccountAndRole() {
    String a = catalog(ACCOUNT_A, ROLE_A, "ext-a");
    String db = newDatabase(newDirectory("db"));
    GlueFaults.inject(Fault.glue("GetTable").accessDenied().always().build());
    assertMessage(() -> sql("SELECT * FROM " + a + "." + db + ".orders"), "io.gluecat.GlueCatalogException",
        "GetTable", db + ".orders", "catalog '" + a + "'", ACCOUNT_A, ROLE_A, "AccessDenied");
  }

  @Test
  void aRoleThatCannotBeAssumedFailsWithTheRoleNamed() {
    String a = catalog(ACCOUNT_A, ROLE_A, "ext-a");
    GlueFaults.inject(Fault.sts("AssumeRole").accessDenied().always().build());
    String all = TableLoadIT.messages(assertThrows(Throwable.class, () -> sql("SHOW NAMESPACES IN " + a)));
    assertTrue(all.contains(ROLE_A) && all.contains("catalog '" + a + "'"), all);
    assertFalse(all.contains(MiniStack.SECRET_ACCESS_KEY), "no secret in errors");
  }

  @Test
  void throttlingThatTheSdkRetriesAwayIsInvisible() {
    String a = newCatalog();
    String db = newDatabase(newDirectory("db"));
    GlueFaults.inject(Fault.glue("GetTables").throttling().onCall(1).build());
    assertTrue(sql("SHOW TABLES IN " + a + "." + db).isEmpty());
    assertEquals(2, GlueCallRecorder.callsOf("GetTables").size(), "the SDK retried the throttled call");
  }

  @Test
  void badOptionsFailWithTheCatalogAndOptionNamed() {
    Map<String, String> bad = ministackOptions();
    bad.put("glue.id", "not-an-account");
    String catalog = newCatalog(bad);
    assertMessage(() -> sql("SHOW NAMESPACES IN " + catalog), "gluecat catalog '" + catalog + "'", "glue.id",
        "12-digit");

    Map<String, String> unknown = ministackOptions();
    unknown.put("glue.regoin", "us-east-1");
    String typo = newCatalog(unknown);
    assertMessage(() -> sql("SHOW NAMESPACES IN " + typo), "unknown option 'glue.regoin'", typo);
  }
}
