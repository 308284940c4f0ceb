package org.opass.read.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReadRoundsTest {

  /** A read of a block by a reader from a server. */
  private static final class Read {
    final String reader;
    final String server;
    final int id;

    Read(String reader, String server, int id) {
      this.reader = reader;
      this.server = server;
      this.id = id;
    }

    @Override
    public String toString() {
      return reader + "<-" + server + "#" + id;
    }
  }

  /** No reader and no server twice in a round, and as few rounds as the busiest of them. */
  private static void assertProper(List<Read> reads, ReadRounds rounds) {
    Set<String> seen = new HashSet<>();
    Map<String, Integer> degree = new HashMap<>();
    for (int i = 0; i < reads.size(); i++) {
      Read r = reads.get(i);
      int c = rounds.round(i);
      assertTrue(c >= 0 && c < rounds.rounds(), "round " + c + " of " + rounds.rounds());
      assertTrue(seen.add("r:" + r.reader + "@" + c), r.reader + " reads twice in round " + c);
      assertTrue(seen.add("s:" + r.server + "@" + c), r.server + " serves twice in round " + c);
      degree.merge("r:" + r.reader, 1, Integer::sum);
      degree.merge("s:" + r.server, 1, Integer::sum);
    }
    int delta = degree.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    assertEquals(delta, rounds.rounds(), "König: the busiest reader or server's reads");
  }

  @Test
  void regularPlansGetPerfectRounds() {
    // 16 readers x 24 reads, each server serving 24: every round is a perfect matching
    Random rnd = new Random(7);
    for (int trial = 0; trial < 50; trial++) {
      int n = 16;
      int perReader = 24;
      List<Integer> slots = new ArrayList<>();
      for (int s = 0; s < n; s++) {
        for (int k = 0; k < perReader; k++) {
          slots.add(s);
        }
      }
      Collections.shuffle(slots, rnd);
      List<Read> reads = new ArrayList<>();
      for (int i = 0; i < slots.size(); i++) {
        reads.add(new Read("p" + i / perReader, "dn" + slots.get(i), i));
      }
      ReadRounds rounds = ReadRounds.of(reads, r -> r.reader, r -> r.server);
      assertProper(reads, rounds);
      assertEquals(perReader, rounds.rounds());
    }
  }

  @Test
  void unevenPlansAndRepeatedPairs() {
    Random rnd = new Random(11);
    for (int trial = 0; trial < 200; trial++) {
      int readers = 1 + rnd.nextInt(9);
      int servers = 1 + rnd.nextInt(9);
      List<Read> reads = new ArrayList<>();
      int count = rnd.nextInt(60);
      for (int i = 0; i < count; i++) {
        // few servers: the same reader-server pair often repeats (a multigraph)
        reads.add(new Read("p" + rnd.nextInt(readers), "dn" + rnd.nextInt(servers), i));
      }
      assertProper(reads, ReadRounds.of(reads, r -> r.reader, r -> r.server));
    }
  }

  @Test
  void orderIsByRoundAndStableWithinARound() {
    List<Read> reads = Arrays.asList(new Read("a", "x", 0), new Read("a", "y", 1),
        new Read("b", "x", 2), new Read("b", "y", 3));
    ReadRounds rounds = ReadRounds.of(reads, r -> r.reader, r -> r.server);
    assertProper(reads, rounds);
    List<Read> ordered = rounds.inOrder(reads);
    for (int i = 1; i < ordered.size(); i++) {
      int prev = rounds.round(reads.indexOf(ordered.get(i - 1)));
      int cur = rounds.round(reads.indexOf(ordered.get(i)));
      assertTrue(prev < cur || prev == cur && ordered.get(i - 1).id < ordered.get(i).id);
    }
    assertEquals(2, rounds.rounds());
    assertEquals(0, ReadRounds.of(List.<Read>of(), r -> r.reader, r -> r.server).rounds());
  }

  @Test
  void refusesReadsWithoutAnEnd() {
    List<Read> reads = Arrays.asList(new Read("a", "x", 0), new Read("a", null, 1));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ReadRounds.of(reads, r -> r.reader, r -> r.server));
    assertTrue(e.getMessage().contains("reads[1] has no server"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> ReadRounds.of(Arrays.asList(reads.get(0), null), r -> r.reader, r -> r.server));
    assertThrows(IllegalArgumentException.class,
        () -> ReadRounds.of(reads.subList(0, 1), r -> r.reader, r -> r.server).inOrder(reads));
  }
}
