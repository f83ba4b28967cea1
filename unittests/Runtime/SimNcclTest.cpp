//===- SimNcclTest.cpp - The simulated NCCL across processes -------------===//
//
// Communicators made with ncclGetUniqueId and ncclCommInitRank, as the cuda
// platform makes them for groups whose devices are in several processes:
// two ranks in two processes (this test binary runs itself again as the
// second), and two ranks created by one thread inside ncclGroupStart/
// ncclGroupEnd. Every collective and a grouped exchange of sends and
// receives are checked against values computed by hand; a communicator
// whose ranks share a GPU is refused, as NCCL refuses it; and nothing is
// left in shared memory.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"
#include "RuntimeTestUtil.h"
#include "Sim.h"

#include "gtest/gtest.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace pcc::runtime::cuda;
using namespace std::string_literals;

namespace {

constexpr int kRanks = 2, kCount = 6;
constexpr char kIdVariable[] = "PCC_SIM_NCCL_TEST_ID";

const Nccl &nccl() {
  static const bool configured = [] {
    std::string message;
    return pcc::sim::configure(4, message);
  }();
  EXPECT_TRUE(configured);
  return simulatedNccl();
}

CUstream streamOn(int gpu) {
  pcc::sim::selectGpu(gpu);
  CUstream stream = nullptr;
  EXPECT_EQ(simulatedDriver().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), 0);
  return stream;
}

/// One rank's buffers and what it must hold after each step.
struct Rank {
  int rank;
  ncclComm_t comm = nullptr;
  CUstream stream = nullptr;
  std::vector<int32_t> in, sum, gathered, part, broadcast, received;

  explicit Rank(int rank) : rank(rank) {
    for (int i = 0; i < kCount; ++i)
      in.push_back(100 * (rank + 1) + i);
    sum.resize(kCount);
    gathered.resize(kRanks * kCount);
    part.resize(kCount / kRanks);
    broadcast.resize(kCount);
    received.resize(kCount);
  }

  /// Queues every collective and an exchange with the other rank.
  void enqueue(const Nccl &n) {
    EXPECT_EQ(n.allReduce(in.data(), sum.data(), kCount, ncclInt32, ncclSum,
                          comm, stream),
              ncclSuccess);
    EXPECT_EQ(n.allGather(in.data(), gathered.data(), kCount, ncclInt32, comm,
                          stream),
              ncclSuccess);
    EXPECT_EQ(n.reduceScatter(in.data(), part.data(), kCount / kRanks,
                              ncclInt32, ncclMax, comm, stream),
              ncclSuccess);
    EXPECT_EQ(n.broadcast(in.data(), broadcast.data(), kCount, ncclInt32, 1,
                          comm, stream),
              ncclSuccess);
    int peer = 1 - rank;
    EXPECT_EQ(n.groupStart(), ncclSuccess);
    EXPECT_EQ(n.send(in.data(), kCount, ncclInt32, peer, comm, stream),
              ncclSuccess);
    EXPECT_EQ(n.recv(received.data(), kCount, ncclInt32, peer, comm, stream),
              ncclSuccess);
    EXPECT_EQ(n.groupEnd(), ncclSuccess);
  }

  /// Waits for the stream and checks the results by hand: rank r's input
  /// element i is 100 (r + 1) + i.
  void check() {
    EXPECT_EQ(simulatedDriver().cuStreamSynchronize(stream), 0);
    for (int i = 0; i < kCount; ++i) {
      EXPECT_EQ(sum[i], 300 + 2 * i) << i;
      EXPECT_EQ(gathered[i], 100 + i) << i;
      EXPECT_EQ(gathered[kCount + i], 200 + i) << i;
      EXPECT_EQ(broadcast[i], 200 + i) << i;
      EXPECT_EQ(received[i], 100 * (2 - rank) + i) << i;
    }
    for (int i = 0; i < kCount / kRanks; ++i)
      EXPECT_EQ(part[i], 200 + rank * (kCount / kRanks) + i) << i;
  }
};

/// Rank `rank` on GPU `rank`, in this process.
void runRank(int rank, const ncclUniqueId &id) {
  const Nccl &n = nccl();
  Rank r(rank);
  r.stream = streamOn(rank);
  ASSERT_EQ(n.commInitRank(&r.comm, kRanks, id, rank), ncclSuccess);
  r.enqueue(n);
  r.check();
  EXPECT_EQ(n.commDestroy(r.comm), ncclSuccess);
}

TEST(SimNccl, RanksInTwoProcesses) {
  ncclUniqueId id;
  ASSERT_EQ(nccl().getUniqueId(&id), ncclSuccess);
  // The other rank: this binary again, running only the test below.
  pid_t child = pcc::test::spawnTest("SimNccl.DISABLED_SecondProcess",
                                     {kIdVariable + "="s + id.internal});
  ASSERT_GT(child, 0);
  runRank(0, id);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  // Nothing is left in shared memory.
  for (std::string name : {std::string(id.internal), id.internal + "-0"s,
                           id.internal + "-1"s})
    EXPECT_LT(shm_open(name.c_str(), O_RDONLY, 0), 0) << name;
}

// Run by RanksInTwoProcesses only.
TEST(SimNccl, DISABLED_SecondProcess) {
  const char *text = std::getenv(kIdVariable);
  ASSERT_NE(text, nullptr);
  ncclUniqueId id{};
  std::strncpy(id.internal, text, sizeof(id.internal) - 1);
  runRank(1, id);
}

TEST(SimNccl, OneThreadCreatesTwoRanksInAGroup) {
  const Nccl &n = nccl();
  ncclUniqueId id;
  ASSERT_EQ(n.getUniqueId(&id), ncclSuccess);
  Rank ranks[] = {Rank(0), Rank(1)};
  // Inside the group each init returns at once; ncclGroupEnd waits for both.
  ASSERT_EQ(n.groupStart(), ncclSuccess);
  for (Rank &r : ranks) {
    r.stream = streamOn(2 + r.rank);
    ASSERT_EQ(n.commInitRank(&r.comm, kRanks, id, r.rank), ncclSuccess);
  }
  ASSERT_EQ(n.groupEnd(), ncclSuccess);
  // The two ranks' work runs on their streams, meeting each other there.
  for (Rank &r : ranks)
    r.enqueue(n);
  for (Rank &r : ranks) {
    r.check();
    EXPECT_EQ(n.commDestroy(r.comm), ncclSuccess);
  }
}

TEST(SimNccl, RanksSharingAGpuAreRefused) {
  const Nccl &n = nccl();
  ncclUniqueId id;
  ASSERT_EQ(n.getUniqueId(&id), ncclSuccess);
  ncclComm_t comms[2];
  pcc::sim::selectGpu(1);
  ASSERT_EQ(n.groupStart(), ncclSuccess);
  for (int rank = 0; rank < 2; ++rank)
    ASSERT_EQ(n.commInitRank(&comms[rank], kRanks, id, rank), ncclSuccess);
  EXPECT_EQ(n.groupEnd(), 5); // ncclInvalidUsage
  for (ncclComm_t comm : comms)
    EXPECT_EQ(n.commDestroy(comm), ncclSuccess);
}

TEST(SimNccl, BadIdsAndRanksAreRefused) {
  const Nccl &n = nccl();
  ncclUniqueId id, other{};
  ASSERT_EQ(n.getUniqueId(&id), ncclSuccess);
  pcc::sim::selectGpu(0);
  ncclComm_t comm = nullptr;
  EXPECT_EQ(n.commInitRank(&comm, kRanks, other, 0), 4);
  EXPECT_EQ(n.commInitRank(&comm, kRanks, id, kRanks), 4);
  EXPECT_EQ(n.commInitRank(&comm, 0, id, 0), 4);
  EXPECT_EQ(comm, nullptr);
}

} // namespace
