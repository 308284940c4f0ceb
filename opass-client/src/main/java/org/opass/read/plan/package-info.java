/**
 * Process-to-data planning (Opass §4): which parallel process should read which chunk so that
 * reads are local and every process gets an equal share.
 *
 * <ul>
 *   <li>{@link org.opass.read.plan.EqualAssignment}: single-input tasks, max-flow matching with
 *       equal quotas (§4.2, Fig. 5), then rack-local and remote fill;
 *   <li>{@link org.opass.read.plan.MultiInputAssignment}: tasks with several inputs
 *       (§4.3, Algorithm 1), plus the min-cost-flow optimum to compare against;
 *   <li>{@link org.opass.read.plan.DynamicAssignment}: per-process lists with stealing (§4.4);
 *   <li>{@link org.opass.read.plan.HdfsChunks}: the chunks of files in a Hadoop file system.
 * </ul>
 *
 * The algorithms take plain value types ({@link org.opass.read.plan.Chunk},
 * {@link org.opass.read.plan.Proc}, {@link org.opass.read.plan.Task}) so that they are testable
 * without a cluster; only {@code HdfsChunks} touches Hadoop client types. Max flows are
 * {@link org.opass.maxflow.IntMaxFlow}'s. The command line is {@code org.opass.read.cli}; this
 * package depends on neither it nor the NameNode glue ({@code org.opass.read.nn}).
 */
package org.opass.read.plan;
