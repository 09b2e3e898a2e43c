// test_nic_rx: the receive path of one VC (rtl/nic/nic_rx.sv; models Vnic_rx0_s and Vnic_rx1_s:
// VC0 and VC1, 5 VPs, MSG_ID slots of 3 bits) alone, against nic_rx_ref.hpp. The test plays:
//   - the senders: random messages on the VC's packet stream (a StreamSource of flits with idle
//     cycles): VC0 WRITEs (1 byte to 12 KB, any offset, page crossings, physical ones, REV with
//     the EVENT a few messages later, good or failing its own check), READ_REQs, MPs; VC1
//     READ_DATA messages with ACKs and NACKs between their packets, answers and data of an older
//     link epoch; on both, failures of the destination check (key, owner, range, right, PHYS
//     without PHYS_OK, a VP past NumVp or disabled), a LAST packet whose AUX carries the sender's
//     failure, packets for another node and of types the VC does not carry;
//   - nic_att: the regions of nic_rx_ref.hpp (RxAtt), answers after a random latency;
//   - engine 2: the write port with random ready (dma_mem.hpp: the transaction rules), every
//     beat held unchanged until taken (as cmn_dma_arb asserts in the NIC);
//   - engine 1, nic_ackgen, the completion unit: random ready on job_*, ack_*, done_*;
//   - software: the MPQ rings set up through the window, MPQ_HEAD moved on (entries consumed) and
//     MPQ_TAIL read at random;
//   - the link going down at random (the epoch moves on; nothing arrives for a while).
// Checked: every byte written is one the reference expects, with its value, exactly as often as
// expected (every byte of a checked-OK message once at its translated address, nothing of a failed
// one); each answer (ACK / NACK, or done on VC1) in order with its fields, only after the writes it
// covers and never while an engine 2 transaction is open; each RX_ERR report, each engine 1 job (the
// head as it came), the MPQ interrupts and tails; valid held stable until taken on every output.
// Reruns: HPCNET_SEED=<seed>. The bench itself is nic_rx_tb.hpp.
#include <catch2/catch.hpp>

#include "Vnic_rx0_s.h"
#include "Vnic_rx1_s.h"
#include "hpcnet/tb/seed.hpp"
#include "nic_rx_tb.hpp"

using nic_tb::RxOpts;
using nic_tb::RxTb;
using nic_tb::rx_run;

TEST_CASE("nic_rx: VC0 writes and events and read requests and mini-packets against the reference", "[nic_rx]") {
  RxTb<Vnic_rx0_s> tb(hpcnet::tb::seed("nic_rx VC0"), false, RxOpts{});
  rx_run(tb, 150000, "nic_rx VC0");
  CHECK(tb.ref.n_msgs_ok > 500);
  CHECK(tb.ref.n_events_ok > 50);
  CHECK(tb.ref.n_mp_refused > 20);
}

TEST_CASE("nic_rx: VC1 read data with answers between its packets against the reference", "[nic_rx]") {
  RxTb<Vnic_rx1_s> tb(hpcnet::tb::seed("nic_rx VC1"), true, RxOpts{});
  rx_run(tb, 150000, "nic_rx VC1");
  CHECK(tb.ref.n_msgs_ok > 500);
  CHECK(tb.ref.n_stale > 100);
}

// The link going down (the epoch moves on, nothing arrives for a while) with held last beats
// shown and closed, or continuing with the next packet shown (that packet is then written): the
// cases that found a held beat's LAST changing before engine 2 took it (VC0 HPCNET_SEED=1009,
// VC1 HPCNET_SEED=2099322045, before nic_rx kept the decision made at the beat's first showing).
TEST_CASE("nic_rx: VC0 with the link going down", "[nic_rx]") {
  RxTb<Vnic_rx0_s> tb(hpcnet::tb::seed("nic_rx VC0 link down"), false, RxOpts{30, 2});
  rx_run(tb, 150000, "nic_rx VC0 link down");
  CHECK(tb.n_downs > 50);
}

TEST_CASE("nic_rx: VC1 with the link going down", "[nic_rx]") {
  RxTb<Vnic_rx1_s> tb(hpcnet::tb::seed("nic_rx VC1 link down"), true, RxOpts{30, 2});
  rx_run(tb, 150000, "nic_rx VC1 link down");
  CHECK(tb.n_downs > 50);
}
