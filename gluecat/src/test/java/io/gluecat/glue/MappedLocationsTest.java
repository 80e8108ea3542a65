package io.gluecat.glue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gluecat.config.LocationMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Database;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

class MappedLocationsTest {
  private static final MappedLocations TRINO_OBJECTS = new MappedLocations(
      LocationMap.parse("local:///=file:/data/trino/, s3://old/=s3a://new/", IllegalArgumentException::new));

  @Test
  void mapsTableEntriesAndDatabasesBothWays() {
    Table stored = Table.builder().name("t").storageDescriptor(StorageDescriptor.builder()
        .location("local:///db/t").serdeInfo(SerDeInfo.builder().parameters(Map.of("path", "local:///db/t",
            "other", "kept")).build()).build()).build();
    Table read = TRINO_OBJECTS.read(stored);
    assertEquals("file:/data/trino/db/t", read.storageDescriptor().location());
    assertEquals(Map.of("path", "file:/data/trino/db/t", "other", "kept"), read.storageDescriptor().serdeInfo().parameters());

    TableInput written = TRINO_OBJECTS.write(TableInput.builder().name("t").storageDescriptor(read.storageDescriptor()).build());
    assertEquals("local:///db/t", written.storageDescriptor().location());
    assertEquals("local:///db/t", written.storageDescriptor().serdeInfo().parameters().get("path"));

    assertEquals("file:/data/trino/db", TRINO_OBJECTS.read(Database.builder().name("db").locationUri("local:///db").build())
        .locationUri());
  }
}
