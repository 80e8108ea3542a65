package io.gluecat.entry;

import static io.gluecat.entry.EntryFormat.*;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * An existing entry with one thing changed and every other field as it was: a rename (Glue has none, so a
 * rename creates this entry and deletes the old one), or the classification a file table's entry lacks
 * (repair), the statistics ANALYZE TABLE computed. Pure functions; {@link EntryWriter} writes whole entries.
 */
public final class EntryEdits {
  private EntryEdits() {}

  /** The entry of {@code existing} under another name, every field as it was. */
  public static TableInput renamed(Table existing, String newName) {
    return asInput(existing).name(newName.toLowerCase(Locale.ROOT)).build();
  }

  /**
   * The entry of {@code existing} with the {@link EntryFormat#CLASSIFICATION} its provider takes, every other
   * field as it was; unchanged when the provider takes none (Delta, text, a Hive-format entry).
   */
  public static TableInput classified(Table existing) {
    Map<String, String> parameters = new LinkedHashMap<>(existing.hasParameters() ? existing.parameters() : Map.of());
    classification(parameters.get(PROVIDER)).ifPresent(c -> parameters.put(CLASSIFICATION, c));
    return asInput(existing).parameters(parameters).build();
  }

  /**
   * The entry of {@code existing} with its statistics replaced by {@code statistics} ({@link EntryStatistics}
   * parameters; none removes them all, as Spark's Hive path does), every other field as it was.
   */
  public static TableInput withStatistics(Table existing, Map<String, String> statistics) {
    return asInput(existing).parameters(EntryStatistics.replaced(
        existing.hasParameters() ? existing.parameters() : Map.of(), statistics)).build();
  }

  /** The entry read, without its statistics: what a replace or a new location starts from (they describe other files). */
  public static Table withoutStatistics(Table existing) {
    return hasStatistics(existing) ? existing.toBuilder().parameters(EntryStatistics.replaced(existing.parameters(),
        Map.of())).build() : existing;
  }

  /** Whether the entry holds statistics. */
  public static boolean hasStatistics(Table existing) {
    return existing.hasParameters() && existing.parameters().keySet().stream().anyMatch(EntryStatistics::isStatistic);
  }

  private static TableInput.Builder asInput(Table existing) {
    return TableInput.builder()
        .name(existing.name())
        .description(existing.description())
        .owner(existing.owner())
        .lastAccessTime(existing.lastAccessTime())
        .lastAnalyzedTime(existing.lastAnalyzedTime())
        .retention(existing.retention())
        .storageDescriptor(existing.storageDescriptor())
        .partitionKeys(existing.partitionKeys())
        .viewOriginalText(existing.viewOriginalText())
        .viewExpandedText(existing.viewExpandedText())
        .tableType(existing.tableType())
        .parameters(existing.parameters())
        .targetTable(existing.targetTable());
  }
}
