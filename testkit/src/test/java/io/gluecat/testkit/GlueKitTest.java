package io.gluecat.testkit;

import static io.gluecat.testkit.MiniStackTest.unique;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.glue.GlueClient;

/**
 * Base of the kit's interceptor tests: the shared MiniStack, a database of the test's own, a plain Glue client,
 * and the whole kit ({@link GlueCallRecorder#reset()}) reset around each test.
 */
abstract class GlueKitTest {

    /** In MiniStack's default account, where the test key's databases are (a role's key acts in the role's account). */
    static final String ROLE = "arn:aws:iam::000000000000:role/gluecat-reader";

    final MiniStack ms = MiniStack.shared();
    final String db = unique("db");
    GlueClient glue;

    @BeforeEach
    void setUp() {
        glue = ms.glue();
        glue.createDatabase(b -> b.databaseInput(d -> d.name(db)));
        GlueCallRecorder.reset();
    }

    @AfterEach
    void tearDown() {
        GlueCallRecorder.reset();
        glue.close();
    }
}
