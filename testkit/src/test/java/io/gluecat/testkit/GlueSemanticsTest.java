package io.gluecat.testkit;

import static io.gluecat.testkit.MiniStackTest.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Glue's answers where MiniStack differs (the kit's stand-ins), against the real MiniStack, through plain SDK clients. */
class GlueSemanticsTest extends GlueKitTest {

    /** A new database holding tables t0 to t4. */
    private String databaseOfFiveTables(String prefix) {
        String db = unique(prefix);
        glue.createDatabase(b -> b.databaseInput(d -> d.name(db)));
        for (int i = 0; i < 5; i++) {
            String name = "t" + i;
            glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name(name)));
        }
        return db;
    }

    @Test
    void pagedListingsComeInPagesWithTokensUntilEverythingWasSeen() throws Exception {
        String db = databaseOfFiveTables("paged");
        try (AutoCloseable paging = GlueSemantics.pageListings(2)) {
            GlueCallRecorder.clear();
            var first = glue.getTables(b -> b.databaseName(db));
            assertEquals(2, first.tableList().size());
            assertNotNull(first.nextToken());
            var second = glue.getTables(b -> b.databaseName(db).nextToken(first.nextToken()));
            var third = glue.getTables(b -> b.databaseName(db).nextToken(second.nextToken()));
            assertEquals(List.of("t2", "t3"), second.tableList().stream().map(t -> t.name()).toList());
            assertEquals(List.of("t4"), third.tableList().stream().map(t -> t.name()).toList());
            assertNull(third.nextToken());
            assertEquals(3, GlueCallRecorder.callsOf("GetTables").size());
            // the record shows the token as the caller sent it, before the kit took its own token out
            assertEquals(java.util.Arrays.asList(null, first.nextToken(), second.nextToken()),
                    GlueCallRecorder.callsOf("GetTables").stream().map(GlueCall::nextToken).toList());
            // every database in the account, page by page, through the SDK's own paginator
            assertTrue(glue.getDatabasesPaginator(b -> { }).stream().flatMap(p -> p.databaseList().stream())
                    .anyMatch(d -> d.name().equals(db)));
        }
        assertNull(glue.getTables(b -> b.databaseName(db)).nextToken(), "Glue's page of 100 again once closed");
    }

    @Test
    void laterPagesOfATableListingAreCutFromItsFirstAnswer() throws Exception {
        String db = databaseOfFiveTables("kept");
        try (AutoCloseable paging = GlueSemantics.pageListings(2)) {
            var first = glue.getTables(b -> b.databaseName(db));
            // a table created after the first page is not in this listing: its later pages come from the first
            // answer, while their requests ask the server for no table at all
            glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("t5")));
            List<String> names = new ArrayList<>(first.tableList().stream().map(t -> t.name()).toList());
            String token = first.nextToken();
            while (token != null) {
                String next = token;
                var page = glue.getTables(b -> b.databaseName(db).nextToken(next));
                page.tableList().forEach(t -> names.add(t.name()));
                token = page.nextToken();
            }
            assertEquals(List.of("t0", "t1", "t2", "t3", "t4"), names);
            // a new listing sees the new table; one with the caller's own filter is cut from full answers
            assertEquals(6, glue.getTablesPaginator(b -> b.databaseName(db)).stream()
                    .mapToLong(p -> p.tableList().size()).sum());
            assertEquals(List.of("t0", "t1", "t2", "t3", "t4", "t5"), glue.getTablesPaginator(b -> b.databaseName(db)
                    .expression("t*")).stream().flatMap(p -> p.tableList().stream()).map(t -> t.name()).toList());
        }
    }

    @Test
    void delayedCallsStillReachTheServerOnceEach() throws Exception {
        String db = unique("delayed");
        try (AutoCloseable delay = GlueSemantics.delayEachCall(5)) {
            GlueCallRecorder.clear();
            glue.createDatabase(b -> b.databaseInput(d -> d.name(db)));
            assertEquals(db, glue.getDatabase(b -> b.name(db)).database().name());
        }
        assertEquals(List.of("CreateDatabase", "GetDatabase"),
                GlueCallRecorder.calls().stream().map(GlueCall::operation).toList());
        assertThrows(IllegalArgumentException.class, () -> GlueSemantics.delayEachCall(-1));
    }

    // ------------------------------------------------------------------ GetPartitions as Glue answers it

    /** A table partitioned by (region string, year int) with the given partitions, created 100 per call. */
    private String partitionedTable(List<List<String>> values) {
        String table = unique("parts");
        glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name(table).partitionKeys(
                k -> k.name("region").type("string"), k -> k.name("year").type("int"))));
        for (int from = 0; from < values.size(); from += 100) {
            List<software.amazon.awssdk.services.glue.model.PartitionInput> page = values
                    .subList(from, Math.min(values.size(), from + 100)).stream()
                    .map(v -> software.amazon.awssdk.services.glue.model.PartitionInput.builder().values(v).build())
                    .toList();
            glue.batchCreatePartition(b -> b.databaseName(db).tableName(table).partitionInputList(page));
        }
        return table;
    }

    private static List<List<String>> values(software.amazon.awssdk.services.glue.model.GetPartitionsResponse answer) {
        return answer.partitions().stream().map(p -> p.values()).toList();
    }

    @Test
    void partitionsAreFilteredByTheExpressionTypedByTheTablesKeys() throws Exception {
        String table = partitionedTable(List.of(List.of("eu", "9"), List.of("eu", "10"), List.of("us", "2024")));
        try (AutoCloseable asGlue = GlueSemantics.filterAndPagePartitions()) {
            GlueCallRecorder.clear();
            assertEquals(List.of(List.of("eu", "9")), values(glue.getPartitions(b -> b.databaseName(db)
                    .tableName(table).expression("(region = 'eu') AND (year < 10)"))));
            assertEquals(List.of(List.of("eu", "10"), List.of("us", "2024")), values(glue.getPartitions(b -> b
                    .databaseName(db).tableName(table).expression("year BETWEEN '10' AND 2024 OR region IN ('x')"))));
            assertEquals(3, glue.getPartitions(b -> b.databaseName(db).tableName(table)).partitions().size());
            List<GlueCall> calls = GlueCallRecorder.callsOf("GetPartitions");
            assertEquals(java.util.Arrays.asList(1, 2, 3), calls.stream().map(GlueCall::returned).toList());
            assertEquals("(region = 'eu') AND (year < 10)", calls.get(0).expression());
        }
        try (AutoCloseable raw = GlueSemantics.off(GlueSemantics.Behaviour.PARTITIONS_AS_GLUE)) {
            assertEquals(3, glue.getPartitions(b -> b.databaseName(db).tableName(table).expression("year = 9"))
                    .partitions().size(), "MiniStack itself ignores the expression once the emulation is off");
        }
        assertEquals(1, glue.getPartitions(b -> b.databaseName(db).tableName(table).expression("year = 9"))
                .partitions().size(), "on again once the handle is closed");
    }

    @Test
    void anExpressionGlueCannotReadIsRefusedWithInvalidInputBeforeItIsSent() throws Exception {
        String table = partitionedTable(List.of(List.of("eu", "9")));
        try (AutoCloseable asGlue = GlueSemantics.filterAndPagePartitions()) {
            GlueCallRecorder.clear();
            software.amazon.awssdk.services.glue.model.InvalidInputException malformed = assertThrows(
                    software.amazon.awssdk.services.glue.model.InvalidInputException.class, () -> glue.getPartitions(
                            b -> b.databaseName(db).tableName(table).expression("region = 'eu' AND (")));
            assertEquals("InvalidInputException", malformed.awsErrorDetails().errorCode());
            assertEquals(400, malformed.statusCode());
            assertTrue(malformed.getMessage().contains("region = 'eu' AND ("), malformed.getMessage());
            assertThrows(software.amazon.awssdk.services.glue.model.InvalidInputException.class, () -> glue
                    .getPartitions(b -> b.databaseName(db).tableName(table).expression("year = 'nine'")));
            List<GlueCall> calls = GlueCallRecorder.callsOf("GetPartitions");
            assertEquals(2, calls.size(), "not retried");
            calls.forEach(c -> assertEquals("InvalidInputException", c.errorCode()));
            calls.forEach(c -> assertEquals(GlueCall.Outcome.FAILED, c.outcome()));
        }
    }

    @Test
    void partitionsComeInPagesOfMaxResultsOrAThousand() throws Exception {
        List<List<String>> all = new ArrayList<>();
        for (int i = 0; i < 1_001; i++) {
            all.add(List.of(i % 2 == 0 ? "eu" : "us", String.valueOf(i)));
        }
        String table = partitionedTable(all);
        try (AutoCloseable asGlue = GlueSemantics.filterAndPagePartitions()) {
            var first = glue.getPartitions(b -> b.databaseName(db).tableName(table));
            assertEquals(1_000, first.partitions().size());
            var second = glue.getPartitions(b -> b.databaseName(db).tableName(table).nextToken(first.nextToken()));
            assertEquals(1, second.partitions().size());
            assertNull(second.nextToken());
            assertEquals(List.of("eu", "1000"), second.partitions().get(0).values());
            assertEquals(table, GlueCallRecorder.callsOf("GetPartitions").get(1).tableName(), "recorded as sent");
            // MaxResults pages a filtered answer; the SDK's paginator follows the tokens
            GlueCallRecorder.clear();
            List<List<String>> us = glue.getPartitionsPaginator(b -> b.databaseName(db).tableName(table)
                    .expression("region = 'us' AND year < 9").maxResults(3)).stream()
                    .flatMap(p -> p.partitions().stream()).map(p -> p.values()).toList();
            assertEquals(List.of(List.of("us", "1"), List.of("us", "3"), List.of("us", "5"), List.of("us", "7")),
                    us.stream().sorted(java.util.Comparator.comparing(v -> Integer.parseInt(v.get(1)))).toList());
            assertEquals(List.of(3, 1), GlueCallRecorder.callsOf("GetPartitions").stream().map(GlueCall::returned)
                    .toList());
            // with Glue's segments too: together the segments hold every partition once
            try (AutoCloseable segments = GlueSemantics.segmentPartitions()) {
                java.util.Set<List<String>> seen = new java.util.HashSet<>();
                for (int n = 0; n < 4; n++) {
                    int number = n;
                    glue.getPartitionsPaginator(b -> b.databaseName(db).tableName(table).maxResults(100)
                            .segment(g -> g.segmentNumber(number).totalSegments(4))).stream()
                            .flatMap(p -> p.partitions().stream()).forEach(p -> assertTrue(seen.add(p.values())));
                }
                assertEquals(1_001, seen.size());
            }
        }
    }

    // ------------------------------------------------------------------ Glue's semantics by default

    @Test
    void listingsComeInGluesPagesByDefault() throws Exception {
        String many = unique("hundred");
        glue.createDatabase(b -> b.databaseInput(d -> d.name(many)));
        for (int i = 0; i < 101; i++) {
            String name = String.format("t%03d", i);
            glue.createTable(b -> b.databaseName(many).tableInput(t -> t.name(name)));
        }
        var first = glue.getTables(b -> b.databaseName(many));
        assertEquals(100, first.tableList().size(), "Glue's page when MaxResults is unset");
        assertNotNull(first.nextToken());
        assertEquals(100, glue.getTables(b -> b.databaseName(many).maxResults(500)).tableList().size(),
                "at most 100 whatever MaxResults asks");
        var small = glue.getTables(b -> b.databaseName(many).maxResults(7));
        assertEquals(7, small.tableList().size(), "the request's MaxResults");
        assertEquals(101, glue.getTablesPaginator(b -> b.databaseName(many).maxResults(40)).stream()
                .mapToLong(p -> p.tableList().size()).sum());
        assertEquals(2, glue.getDatabases(b -> b.maxResults(2)).databaseList().size());
        try (AutoCloseable raw = GlueSemantics.off(GlueSemantics.Behaviour.PAGED_LISTINGS)) {
            var all = glue.getTables(b -> b.databaseName(many).maxResults(7));
            assertEquals(101, all.tableList().size(), "MiniStack answers with everything");
            assertNull(all.nextToken());
        }
    }

    @Test
    void partitionCallsOnAMissingTableFailWithEntityNotFound() throws Exception {
        String table = partitionedTable(List.of(List.of("eu", "9")));
        GlueCallRecorder.clear();
        var missing = assertThrows(software.amazon.awssdk.services.glue.model.EntityNotFoundException.class,
                () -> glue.getPartitions(b -> b.databaseName(db).tableName("no_such_table")));
        assertEquals(400, missing.statusCode());
        assertTrue(missing.getMessage().contains("no_such_table"), missing.getMessage());
        assertThrows(software.amazon.awssdk.services.glue.model.EntityNotFoundException.class,
                () -> glue.batchCreatePartition(b -> b.databaseName(db).tableName("no_such_table")
                        .partitionInputList(p -> p.values("eu", "1"))));
        assertEquals(List.of("EntityNotFoundException", "EntityNotFoundException"), GlueCallRecorder.calls().stream()
                .map(GlueCall::errorCode).toList(), "refused once each, not retried");
        assertEquals(1, glue.getPartitions(b -> b.databaseName(db).tableName(table)).partitions().size());
        // the table's keys are read once and kept: a second listing costs no lookup of the kit's own
        glue.deleteTable(b -> b.databaseName(db).name(table));
        assertThrows(software.amazon.awssdk.services.glue.model.EntityNotFoundException.class,
                () -> glue.getPartitions(b -> b.databaseName(db).tableName(table)), "a table dropped in this JVM");
        try (AutoCloseable raw = GlueSemantics.off(GlueSemantics.Behaviour.MISSING_TABLE_PARTITIONS)) {
            assertEquals(0, glue.getPartitions(b -> b.databaseName(db).tableName("no_such_table")).partitions()
                    .size(), "MiniStack answers as if the table had no partitions");
        }
    }

    @Test
    void updateTableReplacesTheWholeEntry() throws Exception {
        glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("replaced").description("before")
                .owner("someone").tableType("EXTERNAL_TABLE").parameters(java.util.Map.of("a", "1"))
                .partitionKeys(k -> k.name("region").type("string"))
                .storageDescriptor(d -> d.location("file:/tmp/replaced").columns(c -> c.name("id").type("int")))));
        glue.updateTable(b -> b.databaseName(db).tableInput(t -> t.name("replaced")
                .parameters(java.util.Map.of("b", "2"))));
        var after = glue.getTable(b -> b.databaseName(db).name("replaced")).table();
        assertEquals(java.util.Map.of("b", "2"), after.parameters());
        assertNull(after.description());
        assertNull(after.owner());
        assertNull(after.tableType());
        assertNull(after.storageDescriptor());
        assertEquals(List.of(), after.partitionKeys());
        // MiniStack on its own merges: what the input leaves out stays
        try (AutoCloseable raw = GlueSemantics.off(GlueSemantics.Behaviour.REPLACE_ON_UPDATE)) {
            glue.updateTable(b -> b.databaseName(db).tableInput(t -> t.name("replaced").description("merged")));
            glue.updateTable(b -> b.databaseName(db).tableInput(t -> t.name("replaced").owner("kept")));
            var merged = glue.getTable(b -> b.databaseName(db).name("replaced")).table();
            assertEquals("merged", merged.description());
            assertEquals(java.util.Map.of("b", "2"), merged.parameters());
        }
    }

    @Test
    void anUpdateAtAStaleVersionIsRefusedWithConcurrentModification() {
        glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("versioned")));
        String read = glue.getTable(b -> b.databaseName(db).name("versioned")).table().versionId();
        assertNotNull(read);
        assertEquals(read, glue.getTables(b -> b.databaseName(db)).tableList().get(0).versionId());
        glue.updateTable(b -> b.databaseName(db).versionId(read).tableInput(t -> t.name("versioned")
                .description("first")));
        GlueCallRecorder.clear();
        var stale = assertThrows(software.amazon.awssdk.services.glue.model.ConcurrentModificationException.class,
                () -> glue.updateTable(b -> b.databaseName(db).versionId(read).tableInput(t -> t.name("versioned")
                        .description("second"))));
        assertEquals("ConcurrentModificationException", stale.awsErrorDetails().errorCode());
        assertEquals("first", glue.getTable(b -> b.databaseName(db).name("versioned")).table().description());
        String now = glue.getTable(b -> b.databaseName(db).name("versioned")).table().versionId();
        assertTrue(!now.equals(read), "an update moves the version on");
        glue.updateTable(b -> b.databaseName(db).versionId(now).tableInput(t -> t.name("versioned")
                .description("second")));
        assertEquals(read, GlueCallRecorder.callsOf("UpdateTable").get(0).versionId());
    }

    @Test
    void namesAreStoredAndLookedUpInLowerCase() throws Exception {
        String mixed = "Mixed_" + unique("DB");
        glue.createDatabase(b -> b.databaseInput(d -> d.name(mixed)));
        glue.createTable(b -> b.databaseName(mixed).tableInput(t -> t.name("MyTable")
                .partitionKeys(k -> k.name("Region").type("string"))
                .storageDescriptor(d -> d.columns(c -> c.name("UserId").type("int")))));
        var table = glue.getTable(b -> b.databaseName(mixed.toUpperCase(java.util.Locale.ROOT)).name("MYTABLE"))
                .table();
        assertEquals("mytable", table.name());
        assertEquals(mixed.toLowerCase(java.util.Locale.ROOT), table.databaseName());
        assertEquals(List.of("userid"), table.storageDescriptor().columns().stream().map(c -> c.name()).toList());
        assertEquals(List.of("region"), table.partitionKeys().stream().map(c -> c.name()).toList());
        assertEquals(mixed.toLowerCase(java.util.Locale.ROOT), glue.getDatabase(b -> b.name(mixed)).database().name());
        glue.batchCreatePartition(b -> b.databaseName(mixed).tableName("MyTable").partitionInputList(
                p -> p.values("eu")));
        assertEquals(1, glue.getPartitions(b -> b.databaseName(mixed).tableName("MYTABLE").expression("Region = 'eu'"))
                .partitions().size());
        assertEquals("MyTable", GlueCallRecorder.callsOf("CreateTable").get(0).tableName(), "recorded as sent");
        try (AutoCloseable raw = GlueSemantics.off(GlueSemantics.Behaviour.LOWER_CASE_NAMES)) {
            glue.createTable(b -> b.databaseName(db).tableInput(t -> t.name("KeptCase")));
            assertEquals("KeptCase", glue.getTable(b -> b.databaseName(db).name("KeptCase")).table().name());
            assertThrows(software.amazon.awssdk.services.glue.model.EntityNotFoundException.class,
                    () -> glue.getTable(b -> b.databaseName(db).name("keptcase")), "MiniStack keeps the case");
        }
    }

    @Test
    void theRawEmulatorTurnsEveryBehaviourOffUntilClosedOrReset() throws Exception {
        try (AutoCloseable raw = GlueSemantics.rawEmulator()) {
            for (GlueSemantics.Behaviour b : GlueSemantics.Behaviour.values()) {
                assertTrue(!GlueSemantics.isOn(b), b.name());
            }
        }
        for (GlueSemantics.Behaviour b : GlueSemantics.Behaviour.values()) {
            assertTrue(GlueSemantics.isOn(b), b.name());
        }
        GlueSemantics.rawEmulator();
        GlueCallRecorder.reset();
        assertTrue(GlueSemantics.isOn(GlueSemantics.Behaviour.REPLACE_ON_UPDATE), "reset turns them on again");
    }
}
