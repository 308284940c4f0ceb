package org.opass.mrap.science;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.opass.mrap.array.Slab;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;
import org.opass.mrap.pattern.RegionCursor;

/**
 * Damaged files, as a user's bad copies would be: small files written by netCDF-C, HDF5 and
 * scipy (NetCDF-3 classic, 64-bit offset and CDF-5, NetCDF-4, HDF5 with every chunk index,
 * old- and new-style groups and the filter plugins' chunks), cut short, bit-flipped, or with
 * whole fields overwritten by extreme numbers, each read as a task reads it: the header, the
 * slab's plan, every region read and decoded into pieces, every chunk never written filled. Each read either gives values or
 * is refused with a {@link ScienceFormatException} naming the file; never another exception, an
 * {@link OutOfMemoryError} or a hang; the header and the plan allocate memory bounded by the
 * file's length, never by a number read from it; and every region planned lies in the file.
 *
 * <p>Seeded (opass.fuzz.seed, default 36) and sized by opass.fuzz.files (default 2,400 damaged
 * files, a quarter on the other Hadoop releases of bin/compat, where the same code runs); a
 * failure names the seed file, the mutation and the case.
 */
class ScienceFuzzTest {
  private static final String[] SEEDS = {"classic.nc", "offset64.nc", "cdf5.nc", "scipy.nc",
      "nc4.nc", "latest.h5", "hdf5v2.h5", "layouts/appended.nc", "layouts/appended_nofill.nc",
      "layouts/mixed.h5", "layouts/mixed_old.h5", "layouts/btree1.h5",
      "layouts/random_v110.h5", "layouts/random_v18.h5", "layouts/indexes.h5",
      "layouts/userblock.h5", "snapshot.h5", "filters/filters.h5"};
  /** Elements given to a read at most: a damaged shape may name more than a test should read. */
  private static final long MAX_ELEMENTS = 1 << 22;
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** The seed files' bytes and the reads of each (variable, slab, kind), three at most. */
  private static Map<String, List<Fixtures.Case>> seeds() throws IOException {
    Map<String, List<Fixtures.Case>> out = new LinkedHashMap<>();
    for (String s : SEEDS) {
      out.put(s, new ArrayList<>());
    }
    for (Fixtures.Case c : Fixtures.cases()) {
      List<Fixtures.Case> l = out.get(c.file);
      if (l != null && l.size() < 3) {
        l.add(c);
      }
    }
    out.get("hdf5v2.h5").add(null); // no case: opened for its one dataset
    return out;
  }

  @Test
  void damagedFilesAreRefusedByNameWithBoundedMemory() throws Exception {
    long seed = Long.getLong("opass.fuzz.seed", 36);
    int files = Integer.getInteger("opass.fuzz.files",
        Boolean.getBoolean("opass.tests.compat") ? 600 : 2400);
    Random rnd = new Random(seed);
    Map<String, List<Fixtures.Case>> seeds = seeds();
    List<String> names = new ArrayList<>(seeds.keySet());
    int refused = 0;
    int read = 0;
    for (int i = 0; i < files; i++) {
      String name = names.get(i % names.size());
      byte[] original = Fixtures.bytes(name);
      String[] how = new String[1];
      byte[] damaged = Fixtures.damaged(original, rnd, how);
      String file = "fuzz-" + i + "-" + name.replace('/', '-');
      for (Fixtures.Case c : seeds.get(name)) {
        String what = file + " (" + name + ", " + how[0] + ", seed " + seed + ")"
            + (c == null ? "" : ", " + c.variable + (c.slab == null ? "" : "[" + c.slab + "]"));
        boolean[] ok = new boolean[1];
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
          ok[0] = readAsATaskWould(damaged, file, c, what);
        }, what + ": no answer in 30 s");
        if (ok[0]) {
          read++;
        } else {
          refused++;
        }
      }
    }
    System.out.println("ScienceFuzzTest: " + files + " damaged files, " + read + " reads gave "
        + "values, " + refused + " refused by name");
    assertTrue(refused > files / 4, "most damage is found: " + refused + " refusals");
  }

  /** Zarr stores of the fixtures the store fuzz damages: every codec, sharding, both orders. */
  private static final String[] STORES = {"v2/compressors.zarr", "v2/filters.zarr",
      "v2/order.zarr", "v2/separators.zarr", "v2/era5.zarr", "v3/codecs.zarr",
      "v3/sharding.zarr", "v3/dtypes.zarr", "v3/era5.zarr"};

  /**
   * Damaged Zarr stores: one object of a fixture store (its metadata, a chunk or a shard) cut
   * short, bit-flipped or overwritten, the store then opened and every array read whole as
   * the planner and a task read it. Each read gives values or is refused by a {@link
   * ScienceFormatException} naming the store, never another exception, a hang or memory
   * beyond a bound of the store's bytes.
   */
  @Test
  void damagedZarrStoresAreRefusedByNameWithBoundedMemory() throws Exception {
    long seed = Long.getLong("opass.fuzz.seed", 36);
    int stores = Integer.getInteger("opass.fuzz.stores",
        Boolean.getBoolean("opass.tests.compat") ? 150 : 600);
    Random rnd = new Random(seed);
    Map<String, Map<String, byte[]>> seeds = new LinkedHashMap<>();
    String listing = new String(Fixtures.bytes("zarr/files.txt"),
        java.nio.charset.StandardCharsets.UTF_8);
    for (String s : STORES) {
      Map<String, byte[]> objects = new java.util.TreeMap<>();
      for (String f : listing.split("\n")) {
        if (f.startsWith(s + "/")) {
          objects.put(f.substring(s.length() + 1), Fixtures.bytes("zarr/" + f));
        }
      }
      seeds.put(s, objects);
    }
    int refused = 0;
    int read = 0;
    for (int i = 0; i < stores; i++) {
      String name = STORES[i % STORES.length];
      Map<String, byte[]> objects = new java.util.TreeMap<>(seeds.get(name));
      List<String> keys = new ArrayList<>(objects.keySet());
      String key = keys.get(rnd.nextInt(keys.size()));
      String[] how = new String[1];
      objects.put(key, Fixtures.damaged(objects.get(key), rnd, how));
      String store = "fuzz-" + i + "-" + name.replace('/', '-');
      String what = store + " (" + name + ", " + key + " " + how[0] + ", seed " + seed + ")";
      long total = 0;
      for (byte[] b : objects.values()) {
        total += b.length;
      }
      long bound = 64L * total + (64L << 20);
      boolean[] ok = new boolean[1];
      assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
        ok[0] = readStore(new MemoryStore(store, objects), bound, what);
      }, what + ": no answer in 30 s");
      if (ok[0]) {
        read++;
      } else {
        refused++;
      }
    }
    System.out.println("ScienceFuzzTest: " + stores + " damaged stores, " + read + " read "
        + "whole, " + refused + " refused by name");
    assertTrue(refused > stores / 4, "most damage is found: " + refused + " refusals");
  }

  /** True: every array read; false: refused by name. Anything else fails the test. */
  private static boolean readStore(MemoryStore store, long bound, String what) {
    long thread = Thread.currentThread().getId();
    long before = THREADS.getThreadAllocatedBytes(thread);
    try (org.opass.mrap.format.ScienceFile f = ScienceFiles.open(store,
        ScienceFiles.Kind.ZARR)) {
      for (String name : f.variableNames()) {
        Variable v;
        try {
          v = f.variable(name);
        } catch (ScienceFormatException e) {
          if (!e.getMessage().contains(store.name())) {
            fail(what + ": a refusal that does not name the store: " + e.getMessage(), e);
          }
          continue; // this array refused, the others read
        }
        long n = 1;
        for (long d : v.shape()) {
          n *= d;
        }
        if (n > 0 && n <= MAX_ELEMENTS) {
          org.opass.mrap.format.VariableValues.read(
              org.opass.mrap.format.PlacedChunks.positioned(v.chunks(), store), v);
        }
        long allocated = THREADS.getThreadAllocatedBytes(thread) - before;
        if (allocated > bound) {
          fail(what + ": reading allocated " + allocated + " bytes, more than " + bound);
        }
      }
      return true;
    } catch (IOException | RuntimeException | Error e) {
      return refusedByName(e, store.name(), what);
    }
  }

  /** A store's objects in memory, as the fuzz damages them. */
  private static final class MemoryStore implements org.opass.mrap.format.ObjectStore {
    private final String name;
    private final Map<String, byte[]> objects;

    MemoryStore(String name, Map<String, byte[]> objects) {
      this.name = name;
      this.objects = objects;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public byte[] get(String key, int max) {
      byte[] b = objects.get(key);
      if (b != null && b.length > max) {
        throw new ScienceFormatException(name + ": " + key + " holds more than " + max);
      }
      return b;
    }

    @Override
    public java.util.SortedMap<String, Place> list(String prefix) {
      java.util.SortedMap<String, Place> out = new java.util.TreeMap<>();
      objects.forEach((k, b) -> {
        if (k.startsWith(prefix)) {
          out.put(k, new Place(k, 0, b.length));
        }
      });
      return out;
    }

    @Override
    public void readFully(String object, long pos, byte[] b, int off, int len)
        throws IOException {
      byte[] o = objects.get(object);
      if (o == null || pos < 0 || pos + len > o.length) {
        throw new java.io.EOFException(name + ": " + object + " ends before byte " + (pos + len));
      }
      System.arraycopy(o, (int) pos, b, off, len);
    }
  }

  /** True: values read; false: refused by name. Anything else fails the test. */
  private static boolean readAsATaskWould(byte[] bytes, String file, Fixtures.Case c,
      String what) {
    Positioned in = of(bytes);
    long thread = Thread.currentThread().getId();
    long before = THREADS.getThreadAllocatedBytes(thread);
    try {
      ScienceFiles.Kind kind = c == null ? ScienceFiles.Kind.HDF5 : c.kind();
      Variable v = ScienceFiles.variable(in, file, kind, c == null ? "values" : c.variable);
      Slab slab;
      try {
        slab = Slab.parse(c == null ? null : c.slab, v.shape());
      } catch (IllegalArgumentException e) { // the slab does not fit the damaged shape: named
        return false;                         // by the job (mrap.science.slab=...)
      }
      SlabPlan plan = SlabPlan.of(v, slab, 64L << 20);
      long allocated = THREADS.getThreadAllocatedBytes(thread) - before;
      long bound = 64L * bytes.length + (32L << 20);
      if (allocated > bound) {
        fail(what + ": the header and plan allocated " + allocated + " bytes for a file of "
            + bytes.length);
      }
      long[] given = {0};
      SlabPlan.PieceSink sink = (origin, shape, step, b, off, len) -> {
        given[0] += len / v.type().size();
        if (given[0] > MAX_ELEMENTS) {
          throw new Enough();
        }
      };
      try {
        RegionCursor r = plan.pattern() == null ? null : plan.pattern().cursor();
        while (r != null && r.next()) {
          if (r.offset() < 0 || r.length() > bytes.length - r.offset()) {
            fail(what + ": a region planned at " + r.offset() + " (" + r.length() + " bytes) "
                + "lies outside the file (" + bytes.length + " bytes)");
          }
          for (long at = 0; at < r.length(); at += 1 << 20) { // records of at most 1 MiB
            int len = (int) Math.min(v.chunked() ? r.length() : 1 << 20, r.length() - at);
            len -= len % v.type().size();
            byte[] b = Arrays.copyOfRange(bytes, (int) (r.offset() + at),
                (int) (r.offset() + at + len));
            plan.pieces(r.offset() + at, b, len, sink);
            if (v.chunked()) {
              break;
            }
          }
        }
        if (v.chunked()) {
          plan.unwritten().forEach(v.chunkShape(), o -> SlabPlan.fillPieces(v, slab, o, sink));
        }
      } catch (Enough e) {
        // a damaged shape names more elements than a test reads: as many as read were read
      }
      return true;
    } catch (IOException | RuntimeException | Error e) {
      return refusedByName(e, file, what);
    }
  }

  /**
   * False where {@code e} is a refusal naming {@code name}; fails the test for any other
   * exception (or passes its failure on).
   */
  private static boolean refusedByName(Throwable e, String name, String what) {
    if (e instanceof org.opentest4j.AssertionFailedError) {
      throw (org.opentest4j.AssertionFailedError) e;
    }
    if (!(e instanceof ScienceFormatException)) {
      fail(what + ": " + e, e);
    }
    if (!e.getMessage().contains(name)) {
      fail(what + ": a refusal that does not name " + name + ": " + e.getMessage(), e);
    }
    return false;
  }

  /** Stops a read that has given enough. */
  private static final class Enough extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Enough() {
      super(null, null, false, false);
    }
  }

  private static Positioned of(byte[] bytes) {
    return new Positioned() {
      @Override
      public long length() {
        return bytes.length;
      }

      @Override
      protected int readAt(long pos, byte[] b, int off, int len) {
        if (pos >= bytes.length) {
          return -1;
        }
        int n = (int) Math.min(len, bytes.length - pos);
        System.arraycopy(bytes, (int) pos, b, off, n);
        return n;
      }
    };
  }
}
