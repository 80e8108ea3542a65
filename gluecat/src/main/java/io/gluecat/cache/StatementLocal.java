package io.gluecat.cache;

import java.lang.ref.WeakReference;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.QueryPlanningTracker;

/**
 * A value per thread and statement: {@link #get()} gives the calling thread's value for the statement it is
 * working on (see {@link StatementScope}), a new one from the factory when the thread moved on to another
 * statement, and null outside any statement. The one mechanism behind gluecat's per-statement caching.
 */
public final class StatementLocal<T> {
  private final Supplier<T> factory;
  private final ThreadLocal<Holder<T>> holders = new ThreadLocal<>();

  public StatementLocal(Supplier<T> factory) {
    this.factory = factory;
  }

  /** The value of the calling thread's current statement; null outside any statement. */
  public T get() {
    StatementScope.Marker marker = StatementScope.current();
    if (marker == null) {
      return null;
    }
    Holder<T> holder = holders.get();
    if (holder != null) {
      if (marker.execution != null) {
        if (marker.execution.equals(holder.execution)) {
          return holder.value;
        }
        if (holder.execution == null && StatementScope.executesCommand(marker.execution)) {
          holder.execution = marker.execution; // the command analysed last on this thread now runs
          holder.tracker = null;
          return holder.value;
        }
      } else if (holder.execution == null && holder.tracker != null && holder.tracker.get() == marker.tracker) {
        return holder.value;
      }
    }
    holder = new Holder<>(marker, factory.get());
    holders.set(holder);
    return holder.value;
  }

  private static final class Holder<T> {
    WeakReference<QueryPlanningTracker> tracker;
    String execution;
    final T value;

    Holder(StatementScope.Marker marker, T value) {
      this.tracker = marker.tracker == null ? null : new WeakReference<>(marker.tracker);
      this.execution = marker.execution;
      this.value = value;
    }
  }
}
