// test_nic_rx_multi: the receive path of one VC (rtl/nic/nic_rx.sv; models Vnic_rx0_s and
// Vnic_rx1_s) on a network: messages of several senders (4 to 8 source nodes) interleaved packet
// by packet on the VC, up to 40 in progress at once (more than the old table's 16, which
// deadlocked: nic_rx now has an entry for every possible message), and with the shuffle each
// message's packets in any order (the FIRST after later ones, the LAST before the middle ones, the
// EVENT anywhere, before its data too, any number of EVENTs early at once), as adaptive routing
// delivers them; senders' epochs moving on (their messages under way abandoned); senders whose node
// ids alias in the table (refused, BAD_NODE); single packets (mini-packets, read
// requests, answers, malformed ones) between them; random idle cycles on the input, random
// back-pressure on engine 2, the translation client, engine 1 and the answers. The bench is
// nic_rx_tb.hpp, the reference nic_rx_ref.hpp (the table by {SRC_NODE, MSG_ID}). Checked: every
// byte an OK message writes lands exactly once at its translated address; every message answered
// exactly once, after all its writes, with the first failure seen; an EVENT's bytes written after
// all its message's data; no engine 2 transaction open across an answer.
// Reruns: HPCNET_SEED=<seed>.
#include <catch2/catch.hpp>

#include "Vnic_rx0_s.h"
#include "Vnic_rx1_s.h"
#include "hpcnet/tb/seed.hpp"
#include "nic_rx_tb.hpp"

namespace {

template <class M>
void rx_multi_run(bool vc1, unsigned senders, bool shuffle, unsigned down_pm, const char* what,
                  unsigned abandon_pm = 0, bool alias = false) {
  nic_tb::RxTb<M> tb(hpcnet::tb::seed(what), vc1, nic_tb::RxOpts{15, down_pm, senders, shuffle, abandon_pm, alias});
  nic_tb::rx_run(tb, 150000, what);
  INFO("messages in progress at most " << tb.ref.max_open << ", EVENTs early at most " << tb.max_early);
  CHECK(tb.ref.n_msgs_ok > 300);
  CHECK(tb.ref.max_open >= (vc1 ? 6u : 20u));  // VC0: more than the old table's 16
  if (shuffle && !vc1) CHECK(tb.ref.n_ev_parked > 20);
  if (shuffle && !vc1) CHECK(tb.max_early > 2);  // more than the old 2 parked slots
  if (abandon_pm > 0) CHECK(tb.ref.n_purged > 20);  // older epochs' messages dropped
  if (alias) CHECK(tb.ref.n_alias > 20);
}

}  // namespace

TEST_CASE("nic_rx: VC0 messages of 6 senders interleaved packet by packet", "[nic_rx]") {
  rx_multi_run<Vnic_rx0_s>(false, 6, false, 0, "nic_rx VC0 6 senders");
}

TEST_CASE("nic_rx: VC0 messages of 8 senders interleaved with their packets in any order", "[nic_rx]") {
  rx_multi_run<Vnic_rx0_s>(false, 8, true, 0, "nic_rx VC0 8 senders shuffled");
}

// A sender's link going down: the rest of its messages under way never comes (nic_epoch_drop at
// the sender), its next messages carry the next epoch; nic_rx drops the older epoch's entries and
// parked EVENTs at that sender's next packet.
TEST_CASE("nic_rx: VC0 messages of 6 senders in any order with senders' epochs moving on", "[nic_rx]") {
  rx_multi_run<Vnic_rx0_s>(false, 6, true, 0, "nic_rx VC0 6 senders epochs", 12);
}

// Node ids equal modulo 2^NodeW (a network beyond the route table's nodes): the second sender
// can have no entry while the first has messages in progress: dropped, RX_ERR BAD_NODE, its
// message's end answered NACK BAD_NODE.
TEST_CASE("nic_rx: VC0 senders whose node ids alias in the table are refused and the others unharmed", "[nic_rx]") {
  rx_multi_run<Vnic_rx0_s>(false, 6, true, 0, "nic_rx VC0 aliased senders", 0, true);
}

TEST_CASE("nic_rx: VC1 read data of 4 targets interleaved with their packets in any order", "[nic_rx]") {
  rx_multi_run<Vnic_rx1_s>(true, 4, true, 0, "nic_rx VC1 4 targets shuffled");
}

TEST_CASE("nic_rx: VC1 read data of 5 targets in any order with the link going down", "[nic_rx]") {
  rx_multi_run<Vnic_rx1_s>(true, 5, true, 2, "nic_rx VC1 5 targets link down");
}
