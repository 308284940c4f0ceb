package org.opass.read.plan;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Builds {@link Chunk}s from a Hadoop file system's block locations
 * ({@link FileSystem#getFileBlockLocations(FileStatus, long, long)}), one chunk per block.
 * Only Hadoop client types are used, so this works against any cluster the client can reach.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class HdfsChunks {

  /** Which name of a replica's DataNode the chunk's hosts carry. */
  public enum HostIdentity {
    /**
     * {@link BlockLocation#getHosts()}: the DataNode's host name (e.g. {@code dn3.emulated});
     * what processes know about themselves from {@code hostname}. The default.
     */
    HOSTS,
    /**
     * {@link BlockLocation#getNames()}: the DataNode's transfer address {@code ip:port}; for
     * clusters where host names are not unique or not resolvable, or several DataNodes share
     * a host.
     */
    NAMES
  }

  private HdfsChunks() {
  }

  /** {@link #of(FileSystem, List, HostIdentity)} with {@link HostIdentity#HOSTS}. */
  public static List<Chunk> of(FileSystem fs, List<Path> paths) throws IOException {
    return of(fs, paths, HostIdentity.HOSTS);
  }

  /**
   * One chunk per block of every file in {@code paths}, ids 0, 1, ... in order. A directory
   * stands for the files under it, recursively, sorted by path, leaving out names starting
   * with {@code _} or {@code .} the way {@code FileInputFormat} does ({@code _SUCCESS},
   * {@code .crc}). A path of another scheme or authority than {@code fs}'s is read through its
   * own file system.
   * Empty files have no chunks.
   *
   * @throws FileNotFoundException naming a path that does not exist
   */
  public static List<Chunk> of(FileSystem fs, List<Path> paths, HostIdentity identity)
      throws IOException {
    Objects.requireNonNull(fs, "fs");
    Objects.requireNonNull(paths, "paths");
    Objects.requireNonNull(identity, "identity");
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < paths.size(); i++) {
      Path p = paths.get(i);
      if (p == null) {
        throw new IllegalArgumentException("paths[" + i + "] is null");
      }
      FileSystem pfs = isOf(fs, p) ? fs : p.getFileSystem(fs.getConf());
      FileStatus st;
      try {
        st = pfs.getFileStatus(p);
      } catch (FileNotFoundException e) {
        throw new FileNotFoundException(p + ": no such file or directory");
      }
      List<FileStatus> files = new ArrayList<>();
      if (st.isDirectory()) {
        collect(pfs, st.getPath(), files);
      } else {
        files.add(st);
      }
      for (FileStatus f : files) {
        String path = f.getPath().toString();
        for (BlockLocation b : pfs.getFileBlockLocations(f, 0, f.getLen())) {
          String[] ids = identity == HostIdentity.NAMES ? b.getNames() : b.getHosts();
          chunks.add(new Chunk(chunks.size(), path, b.getOffset(), b.getLength(), hosts(ids)));
        }
      }
    }
    return chunks;
  }

  /**
   * Whether {@code p} is {@code fs}'s own: no scheme, or {@code fs}'s scheme and authority (or
   * none). Such paths go to {@code fs} itself, not to the JVM's cached instance for that URI,
   * which may have other settings or user, or belong to a cluster since stopped.
   */
  private static boolean isOf(FileSystem fs, Path p) {
    URI u = p.toUri();
    URI own = fs.getUri();
    return u.getScheme() == null || (u.getScheme().equalsIgnoreCase(own.getScheme())
        && (u.getAuthority() == null || u.getAuthority().equalsIgnoreCase(own.getAuthority())));
  }

  private static List<String> hosts(String[] ids) {
    List<String> out = new ArrayList<>();
    if (ids != null) {
      for (String h : ids) {
        // a replica without a usable name cannot be local to anyone
        if (h != null && !h.isEmpty()) {
          out.add(h);
        }
      }
    }
    return out;
  }

  private static void collect(FileSystem fs, Path dir, List<FileStatus> out) throws IOException {
    FileStatus[] children = fs.listStatus(dir);
    Arrays.sort(children, Comparator.comparing(FileStatus::getPath));
    for (FileStatus c : children) {
      String name = c.getPath().getName();
      if (name.startsWith("_") || name.startsWith(".")) {
        continue;
      }
      if (c.isDirectory()) {
        collect(fs, c.getPath(), out);
      } else {
        out.add(c);
      }
    }
  }
}
