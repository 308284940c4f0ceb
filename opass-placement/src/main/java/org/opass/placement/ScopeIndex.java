package org.opass.placement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * Nodes grouped by every level of their network location ("/dc/rack" is filed under "",
 * "/dc" and "/dc/rack"), so that a uniformly random node of a scope, or of everything outside
 * a scope ("~/dc/rack"), costs O(1) instead of a topology walk. Immutable; rebuilt by its
 * owner when the cluster may have changed, and every draw is re-checked by a caller's filter.
 *
 * @param <T> node type
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class ScopeIndex<T> {
  private final Map<String, List<T>> byScope;
  private final Function<T, String> location;

  private ScopeIndex(Map<String, List<T>> byScope, Function<T, String> location) {
    this.byScope = byScope;
    this.location = location;
  }

  /** @param location a node's network location, e.g. "/rack1"; "" or "/" for the root */
  public static <T> ScopeIndex<T> of(Iterable<T> nodes, Function<T, String> location) {
    Map<String, List<T>> byScope = new HashMap<>();
    for (T node : nodes) {
      String loc = location.apply(node);
      byScope.computeIfAbsent("", k -> new ArrayList<>()).add(node);
      for (int i = loc.indexOf('/', 1); ; i = loc.indexOf('/', i + 1)) {
        String prefix = i < 0 ? loc : loc.substring(0, i);
        if (prefix.length() > 1) {
          byScope.computeIfAbsent(prefix, k -> new ArrayList<>()).add(node);
        }
        if (i < 0) {
          break;
        }
      }
    }
    byScope.replaceAll((k, v) -> List.copyOf(v));
    return new ScopeIndex<>(Map.copyOf(byScope), location);
  }

  /** Number of indexed nodes. */
  public int size() {
    List<T> all = byScope.get("");
    return all == null ? 0 : all.size();
  }

  /**
   * Adds to {@code out[n..]} distinct random nodes of {@code scope} that {@code accept} takes
   * and that are not already in {@code out[0..n)}, trying at most {@code attempts} draws.
   *
   * @param scope a location ("" for all), or "~location" for every node outside it
   * @return the new count of nodes in {@code out}
   */
  public int draw(String scope, T[] out, int n, int attempts, Predicate<T> accept,
      Random random) {
    boolean outside = scope.startsWith("~");
    String excluded = outside ? scope.substring(1) : null;
    List<T> pool = byScope.get(outside ? "" : scope);
    if (pool == null || pool.isEmpty()) {
      return n;
    }
    for (int a = 0; a < attempts && n < out.length; a++) {
      T node = pool.get(random.nextInt(pool.size()));
      if ((excluded == null || !within(location.apply(node), excluded))
          && !contains(out, n, node) && accept.test(node)) {
        out[n++] = node;
      }
    }
    return n;
  }

  /** Whether location {@code loc} is {@code scope} or below it. */
  static boolean within(String loc, String scope) {
    return loc.startsWith(scope)
        && (loc.length() == scope.length() || loc.charAt(scope.length()) == '/'
            || scope.isEmpty() || scope.equals("/"));
  }

  private static <T> boolean contains(T[] out, int n, T node) {
    for (int i = 0; i < n; i++) {
      if (out[i] == node) {
        return true;
      }
    }
    return false;
  }
}
