package io.gluecat.extensions.views;


import io.gluecat.entry.TableName;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * ALTER VIEW v RENAME TO [db.]w of a gluecat view (Spark 3.5 and 4.1, session mode on every line): the new name is
 * in the same catalog, and in the view's database unless it names one.
 */
final class RenameViewByName extends ViewCommand {
  private final List<String> newName;

  RenameViewByName(GlueView view, List<String> newName) {
    super(view);
    this.newName = newName;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    if (newName.isEmpty() || newName.size() > 2) {
      throw new IllegalArgumentException(String.format("Cannot rename view %s to %s: name the new view as "
          + "<database>.<view> or <view> (in the same catalog)", view.qualified(), String.join(".", newName)));
    }
    view.existing("ALTER VIEW ... RENAME", "ALTER TABLE ... RENAME");
    TableName to = new TableName(
        newName.size() == 2 ? newName.get(0).toLowerCase(Locale.ROOT) : view.name().database(),
        newName.get(newName.size() - 1).toLowerCase(Locale.ROOT));
    view.views().rename(view.name(), to);
    return List.of();
  }
}
