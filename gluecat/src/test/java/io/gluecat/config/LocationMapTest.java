package io.gluecat.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Database;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

class LocationMapTest {
  private static final LocationMap TRINO =
      LocationMap.parse("local:///=file:/data/trino/, s3://old/=s3a://new/", IllegalArgumentException::new);

  @Test
  void readsStoredPrefixesWhereHadoopOpensThem() {
    assertEquals("file:/data/trino/db/t-1", TRINO.toHadoop("local:///db/t-1"));
    assertEquals("s3a://new/x/y", TRINO.toHadoop("s3://old/x/y"));
    assertEquals("s3a://other/x", TRINO.toHadoop("s3a://other/x"), "unmapped locations stay");
  }

  @Test
  void writesHadoopLocationsBackUnderTheStoredPrefixInEitherSpelling() {
    assertEquals("local:///db/t-2", TRINO.toStored("file:/data/trino/db/t-2"));
    assertEquals("local:///db/t-2", TRINO.toStored("file:///data/trino/db/t-2"));
    assertEquals("file:/data/trinox/t", TRINO.toStored("file:/data/trinox/t"), "prefixes end at a '/'");
  }

  @Test
  void mapsTableEntriesAndDatabasesBothWays() {
    Table stored = Table.builder().name("t").storageDescriptor(StorageDescriptor.builder()
        .location("local:///db/t").serdeInfo(SerDeInfo.builder().parameters(Map.of("path", "local:///db/t",
            "other", "kept")).build()).build()).build();
    Table read = TRINO.read(stored);
    assertEquals("file:/data/trino/db/t", read.storageDescriptor().location());
    assertEquals(Map.of("path", "file:/data/trino/db/t", "other", "kept"), read.storageDescriptor().serdeInfo().parameters());

    TableInput written = TRINO.write(TableInput.builder().name("t").storageDescriptor(read.storageDescriptor()).build());
    assertEquals("local:///db/t", written.storageDescriptor().location());
    assertEquals("local:///db/t", written.storageDescriptor().serdeInfo().parameters().get("path"));

    assertEquals("file:/data/trino/db", TRINO.read(Database.builder().name("db").locationUri("local:///db").build())
        .locationUri());
  }

  @Test
  void refusesPairsThatAreNotPrefixPairs() {
    for (String bad : new String[] {"local:///", "=file:/x/", "local:///=", "local:///=file:/x", "nope/=file:/x/"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> LocationMap.parse(bad, IllegalArgumentException::new), bad);
      assertTrue(e.getMessage().contains("prefix") || e.getMessage().contains("<stored prefix>"), e.getMessage());
    }
  }
}
