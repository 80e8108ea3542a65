package io.gluecat.entry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.types.StructType;

/**
 * A view as gluecat keeps it in Glue, independent of any Spark line's view API (Spark 4.2's
 * {@code View} is converted to and from this in compat-spark42; 3.5 and 4.1 have no such type).
 * {@link ViewFormat} converts it to and from the Glue entry.
 */
public final class ViewEntry {

  /** Whose SQL the view text is. Spark runs only its own; others are listed but not expanded. */
  public enum Dialect {
    SPARK("Spark SQL"),
    TRINO("Trino/Athena (presto_view)");

    private final String label;

    Dialect(String label) {
      this.label = label;
    }

    public String label() { return label; }
  }

  private final String database;
  private final String name;
  private final String sql;
  private final StructType schema;
  private final Optional<String> comment;
  private final Optional<String> owner;
  private final Optional<String> collation;
  private final Optional<String> currentCatalog;
  private final List<String> currentNamespace;
  private final Map<String, String> sqlConfigs;
  private final Optional<String> schemaMode;
  private final List<String> queryColumnNames;
  private final Map<String, String> properties;
  private final String createVersion;
  /** When Glue created the entry (its CreateTime); 0 for a view not read from Glue. Not part of equality. */
  private final long createTimeMillis;
  private final Dialect dialect;

  private ViewEntry(Builder b) {
    this.database = b.database.toLowerCase(Locale.ROOT);
    this.name = b.name.toLowerCase(Locale.ROOT);
    this.sql = Objects.requireNonNull(b.sql, "sql");
    this.schema = b.schema == null ? new StructType() : b.schema;
    this.comment = Optional.ofNullable(b.comment).filter(c -> !c.isEmpty());
    this.owner = Optional.ofNullable(b.owner).filter(o -> !o.isEmpty());
    this.collation = Optional.ofNullable(b.collation).filter(c -> !c.isEmpty());
    this.currentCatalog = Optional.ofNullable(b.currentCatalog).filter(c -> !c.isEmpty());
    this.currentNamespace = Collections.unmodifiableList(new ArrayList<>(b.currentNamespace));
    this.sqlConfigs = Collections.unmodifiableMap(new LinkedHashMap<>(b.sqlConfigs));
    this.schemaMode = Optional.ofNullable(b.schemaMode).filter(m -> !m.isEmpty());
    this.queryColumnNames = Collections.unmodifiableList(new ArrayList<>(b.queryColumnNames));
    this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(b.properties));
    this.createVersion = b.createVersion == null ? "" : b.createVersion;
    this.createTimeMillis = b.createTimeMillis;
    this.dialect = b.dialect;
  }

  public static Builder builder(String database, String name, String sql) {
    return new Builder(database, name, sql);
  }

  /** A builder holding every field of this view, to change some of them. */
  public Builder toBuilder() {
    return new Builder(database, name, sql).schema(schema).comment(comment.orElse(null)).owner(owner.orElse(null))
        .collation(collation.orElse(null)).currentCatalog(currentCatalog.orElse(null))
        .currentNamespace(currentNamespace).sqlConfigs(sqlConfigs).schemaMode(schemaMode.orElse(null))
        .queryColumnNames(queryColumnNames).properties(properties).createVersion(createVersion)
        .createTimeMillis(createTimeMillis).dialect(dialect);
  }

  public String database() { return database; }
  public String name() { return name; }
  /** {@code db.view}, as users write it after the catalog name. */
  public String qualifiedName() { return database + "." + name; }
  /** The view's query, as the user wrote it (Spark's viewText). */
  public String sql() { return sql; }
  /** The view's columns (names, types, comments) as Spark shows them. */
  public StructType schema() { return schema; }
  public Optional<String> comment() { return comment; }
  public Optional<String> owner() { return owner; }
  public Optional<String> collation() { return collation; }
  /** The catalog current when the view was created: unqualified names in {@link #sql()} resolve in it. */
  public Optional<String> currentCatalog() { return currentCatalog; }
  /** The namespace current when the view was created (within {@link #currentCatalog()}). */
  public List<String> currentNamespace() { return currentNamespace; }
  /** SQL settings captured at creation, keys without prefix ({@code spark.sql.ansi.enabled}). */
  public Map<String, String> sqlConfigs() { return sqlConfigs; }
  /** BINDING, COMPENSATION, TYPE EVOLUTION or EVOLUTION; empty when not recorded. */
  public Optional<String> schemaMode() { return schemaMode; }
  /** The output column names of the query at creation, mapped onto {@link #schema()} on read. */
  public List<String> queryColumnNames() { return queryColumnNames; }
  /** The user's TBLPROPERTIES. */
  public Map<String, String> properties() { return properties; }
  /** The Spark version that created the entry; empty when unknown. */
  public String createVersion() { return createVersion; }
  public long createTimeMillis() { return createTimeMillis; }
  public Dialect dialect() { return dialect; }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ViewEntry)) {
      return false;
    }
    ViewEntry v = (ViewEntry) o;
    return database.equals(v.database) && name.equals(v.name) && sql.equals(v.sql) && schema.equals(v.schema)
        && comment.equals(v.comment) && owner.equals(v.owner) && collation.equals(v.collation)
        && currentCatalog.equals(v.currentCatalog) && currentNamespace.equals(v.currentNamespace)
        && sqlConfigs.equals(v.sqlConfigs) && schemaMode.equals(v.schemaMode)
        && queryColumnNames.equals(v.queryColumnNames) && properties.equals(v.properties)
        && createVersion.equals(v.createVersion) && dialect == v.dialect;
  }

  @Override
  public int hashCode() {
    return Objects.hash(database, name, sql, schema, currentCatalog, currentNamespace, properties);
  }

  @Override
  public String toString() {
    return "ViewEntry(" + qualifiedName() + ", " + dialect + ", sql=" + sql + ", schema=" + schema.simpleString()
        + ", catalog=" + currentCatalog.orElse("") + ", namespace=" + currentNamespace + ", properties=" + properties
        + ")";
  }

  public static final class Builder {
    private final String database;
    private final String name;
    private final String sql;
    private StructType schema;
    private String comment;
    private String owner;
    private String collation;
    private String currentCatalog;
    private List<String> currentNamespace = List.of();
    private Map<String, String> sqlConfigs = Map.of();
    private String schemaMode;
    private List<String> queryColumnNames = List.of();
    private Map<String, String> properties = Map.of();
    private String createVersion;
    private long createTimeMillis;
    private Dialect dialect = Dialect.SPARK;

    private Builder(String database, String name, String sql) {
      this.database = Objects.requireNonNull(database, "database");
      this.name = Objects.requireNonNull(name, "name");
      this.sql = sql;
    }

    public Builder schema(StructType schema) { this.schema = schema; return this; }
    public Builder comment(String comment) { this.comment = comment; return this; }
    public Builder owner(String owner) { this.owner = owner; return this; }
    public Builder collation(String collation) { this.collation = collation; return this; }
    public Builder currentCatalog(String catalog) { this.currentCatalog = catalog; return this; }
    public Builder currentNamespace(List<String> namespace) {
      this.currentNamespace = namespace == null ? List.of() : namespace;
      return this;
    }
    public Builder sqlConfigs(Map<String, String> configs) {
      this.sqlConfigs = configs == null ? Map.of() : configs;
      return this;
    }
    public Builder schemaMode(String mode) { this.schemaMode = mode; return this; }
    public Builder queryColumnNames(List<String> names) {
      this.queryColumnNames = names == null ? List.of() : names;
      return this;
    }
    public Builder properties(Map<String, String> properties) {
      this.properties = properties == null ? Map.of() : properties;
      return this;
    }
    public Builder createVersion(String version) { this.createVersion = version; return this; }
    public Builder createTimeMillis(long millis) { this.createTimeMillis = millis; return this; }
    public Builder dialect(Dialect dialect) { this.dialect = dialect; return this; }

    public ViewEntry build() {
      return new ViewEntry(this);
    }
  }
}
