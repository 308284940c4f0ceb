package org.opass.read.nn;

/**
 * One block of a file read by one reader, as the request asks it (the planner's and the
 * balancer's chunk read, here with the located block and the reader's own replica if any).
 * What {@link PlanRequestResolver} turns a request into, {@link ReadPlanService} plans and
 * {@link PlanDocuments} reports; its fields are fixed when it is made.
 */
final class BlockRead {
  final TargetFile file;
  final TargetFile.Block block;
  final String reader;
  final String local;

  BlockRead(TargetFile file, TargetFile.Block block, String reader, String local) {
    this.file = file;
    this.block = block;
    this.reader = reader;
    this.local = local;
  }
}
