package org.opass.mrap.locality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.opass.mrap.locality.SplitLocality.Group;
import org.opass.mrap.locality.SplitLocality.Piece;

class SplitLocalityTest {

  private static List<Piece> randomChunks(Random rnd, int n, int hosts, int replicas, long bytes) {
    List<Piece> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Set<String> hs = new HashSet<>();
      while (hs.size() < replicas) {
        hs.add("h" + rnd.nextInt(hosts));
      }
      out.add(new Piece(bytes, new ArrayList<>(hs)));
    }
    return out;
  }

  @Test
  void virtualSplitsAreAllLocalOnRandomPlacement() {
    Random rnd = new Random(1);
    for (int trial = 0; trial < 20; trial++) {
      int hosts = 4 + rnd.nextInt(30);
      int n = 50 + rnd.nextInt(2000);
      List<Piece> chunks = randomChunks(rnd, n, hosts, 3, 1 << 20);
      long target = (1L << 20) * (1 + rnd.nextInt(8));
      List<Group> groups = SplitLocality.virtualSplits(chunks, target);
      boolean[] seen = new boolean[n];
      for (Group g : groups) {
        for (int c : g.chunks()) {
          assertTrue(!seen[c], "chunk " + c + " in two groups");
          seen[c] = true;
          assertTrue(chunks.get(c).hosts().contains(g.host()),
              "chunk " + c + " is local to its group's host " + g.host());
        }
        assertTrue(g.bytes() <= 2 * target, "groups are about the target size");
      }
      for (boolean s : seen) {
        assertTrue(s, "every chunk in a group");
      }
    }
  }

  @Test
  void virtualSplitsStayLocalWhenEqualSharesAreNotPossible() {
    // eight chunks on host a only, two on b: every group local, a's groups carry more
    List<Piece> chunks = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      chunks.add(new Piece(10, List.of("a")));
    }
    chunks.add(new Piece(10, List.of("a", "b")));
    chunks.add(new Piece(10, List.of("b")));
    int onA = 0;
    for (Group g : SplitLocality.virtualSplits(chunks, 20)) {
      for (int c : g.chunks()) {
        assertTrue(chunks.get(c).hosts().contains(g.host()));
        onA += g.host().equals("a") ? 1 : 0;
      }
    }
    assertEquals(8, onA, "the shared chunk goes to b, the less busy of its holders");
  }

  @Test
  void chunksWithoutReplicasGetGroupsOfTheirOwn() {
    List<Piece> chunks = List.of(new Piece(10, List.of("a")), new Piece(10, List.of()),
        new Piece(10, List.of("a")));
    List<Group> groups = SplitLocality.virtualSplits(chunks, 100);
    assertEquals(2, groups.size());
    assertEquals("a", groups.get(0).host());
    assertEquals(null, groups.get(1).host());
    assertEquals(1, groups.get(1).chunks()[0]);
  }

  @Test
  void withoutRacksThePrimaryHoldsTheMostBytes() {
    List<Piece> split = List.of(new Piece(100, List.of("a", "b")), new Piece(50, List.of("b")),
        new Piece(80, List.of("c")));
    List<SplitLocality.HostPrice> ranked = SplitLocality.rank(split, h -> "", 2);
    assertEquals("b", ranked.get(0).host());
    assertEquals(150, ranked.get(0).contribution());
    assertEquals(List.of("b", "c"), SplitLocality.cover(split, h -> "", 2).hosts());
  }

  @Test
  void racksCanMakeAHostWithFewerBytesThePrimary() {
    // c holds the most bytes, but everything else lies in the other rack; a's rack-mate b
    // holds what a lacks except c's piece
    Map<String, String> rack = Map.of("a", "r1", "b", "r1", "c", "r2");
    List<Piece> split = List.of(new Piece(100, List.of("a")), new Piece(100, List.of("b")),
        new Piece(110, List.of("c")));
    List<SplitLocality.HostPrice> ranked = SplitLocality.rank(split, rack::get, 2);
    assertEquals("a", ranked.get(0).host(), ranked.toString());
    assertEquals(3.2, ranked.get(0).price(), 1e-9);
    assertEquals("c", ranked.get(2).host());
    assertEquals(List.of("a", "b", "c"), SplitLocality.cover(split, rack::get, 2).hosts());
    // with no rack cost difference the most bytes wins again
    assertEquals("c", SplitLocality.rank(split, rack::get, 1).get(0).host());
  }

  @Test
  void theCoverPricesChunksNotBytesAndCoversEveryChunk() {
    // a holds one big chunk, b three small ones: per byte a wins, per chunk (the thesis's
    // contribution) b does; the secondaries then cover the rest, rack-mates of the primary first
    Map<String, String> rack = Map.of("a", "r1", "b", "r1", "c", "r2", "d", "r1");
    List<Piece> split = List.of(new Piece(300, List.of("a")), new Piece(90, List.of("b", "c")),
        new Piece(90, List.of("b")), new Piece(90, List.of("b", "d")),
        new Piece(40, List.of("c", "d")));
    assertEquals("a", SplitLocality.rank(split, rack::get, 2).get(0).host());
    SplitLocality.Cover cover = SplitLocality.cover(split, rack::get, 2);
    assertEquals("b", cover.primary());
    assertEquals(List.of("d", "a"), cover.secondaries(), "d, b's rack-mate, covers the small "
        + "chunk c also holds; a the big one");
    assertEquals(270, cover.primaryBytes());
    Random rnd = new Random(9);
    for (int t = 0; t < 200; t++) {
      List<Piece> s = randomChunks(rnd, 1 + rnd.nextInt(12), 3 + rnd.nextInt(20), 3, 1 << 20);
      SplitLocality.Cover c = SplitLocality.cover(s, h -> "r" + (h.hashCode() & 3), 2);
      Set<String> chosen = new HashSet<>(c.hosts());
      assertEquals(chosen.size(), c.hosts().size(), "no host twice");
      for (Piece p : s) {
        assertTrue(p.hosts().stream().anyMatch(chosen::contains), "every chunk covered");
      }
    }
  }
}
