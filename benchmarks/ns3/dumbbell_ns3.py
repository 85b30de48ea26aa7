#!/usr/bin/env python3
"""The W1/W2 dumbbell of benchmarks/ns3/ in ns-3 (PyPI package `ns3`).

N bulk TCP SACK flows, each on its own sender/receiver pair, share one
15 Mbit/s bottleneck with 10 ms one-way delay and a 250-packet drop-tail
buffer; access links are 100 Mbit/s with 0 delay, so the base RTT is 20 ms.
The TCP settings mirror reorderlab's `sack` variant with the scenario
defaults (see README.md in this folder for the parameter table and the
differences that remain).

Prints one JSON object on stdout:

    {"simulator": "ns-3", "flows": N, "duration_s": ..., "wall_s": ...,
     "goodput_bps": [per flow, over [from, duration)], "bytes_delivered": [...],
     "bottleneck_drops": ..., "retransmissions": ...}

`wall_s` is the wall time of Simulator::Run() alone (topology building and
the bindings' start-up are not counted).

Usage: dumbbell_ns3.py --flows 16 [--duration 100] [--measure-from 10]
"""

import argparse
import json
import os
import sys
import time

# Settings shared with w1.toml / w2.toml. Keep the two sides in step.
BOTTLENECK_RATE = "15Mbps"
BOTTLENECK_DELAY = "10ms"      # one way
BOTTLENECK_QUEUE = "250p"      # packets waiting, not counting the one being sent
ACCESS_RATE = "100Mbps"
ACCESS_DELAY = "0ms"
ACCESS_QUEUE = "1000p"         # reorderlab's access-link default
MSS = 1460                     # 1500-byte IP packets (no TCP options on data)
INITIAL_CWND = 2               # segments; reorderlab SenderConfig::default
MIN_RTO = "1s"
BUF_BYTES = 1 << 24            # socket buffers large enough never to limit (rwnd unset)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--flows", type=int, default=1, help="number of flows (= pairs)")
    p.add_argument("--duration", type=float, default=100.0, help="simulated seconds")
    p.add_argument("--measure-from", type=float, default=10.0,
                   help="start of the goodput window, seconds (window ends at --duration)")
    return p.parse_args()


def main():
    args = parse_args()
    if not 0 <= args.measure_from < args.duration:
        sys.exit("--measure-from must be in [0, duration)")

    # cppyy prints harmless "Failed to materialize symbols" lines on stderr
    # while loading the bindings; they are not ours to fix.
    from ns import ns
    import cppyy

    # Small C++ helpers, compiled once by cppyy: snapshot the sinks' byte
    # counters at the start of the window and count drops, without calling
    # back into Python while the simulation runs.
    cppyy.cppdef(r"""
    namespace rlbench {
    using namespace ns3;
    static std::vector<Ptr<PacketSink>> g_sinks;
    static std::vector<uint64_t> g_rx_from;
    static uint64_t g_drops = 0;
    static uint64_t g_retx = 0;
    static void Snapshot() {
        g_rx_from.clear();
        for (auto& s : g_sinks) g_rx_from.push_back(s->GetTotalRx());
    }
    void AddSink(Ptr<Application> a) { g_sinks.push_back(DynamicCast<PacketSink>(a)); }
    void ScheduleSnapshot(double t) { Simulator::Schedule(Seconds(t), &Snapshot); }
    uint64_t RxFrom(size_t i) { return g_rx_from.at(i); }
    uint64_t RxTotal(size_t i) { return g_sinks.at(i)->GetTotalRx(); }
    static void CountDrop(Ptr<const Packet>) { ++g_drops; }
    static void CountRetx(Ptr<const Packet>, const TcpHeader&, const Address&,
                          const Address&, Ptr<const TcpSocketBase>) { ++g_retx; }
    // Drops at the bottleneck's sending side: in the device queue, or in the
    // traffic-control layer when the device queue is full (no queue disc).
    void WatchDrops(Ptr<NetDevice> dev) {
        DynamicCast<PointToPointNetDevice>(dev)->GetQueue()->TraceConnectWithoutContext(
            "Drop", MakeCallback(&CountDrop));
        dev->GetNode()->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "TcDrop", MakeCallback(&CountDrop));
    }
    void WatchRetx(Ptr<Application> a) {
        a->TraceConnectWithoutContext("TcpRetransmission", MakeCallback(&CountRetx));
    }
    bool HasQueueDisc(Ptr<NetDevice> dev) {
        return dev->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(dev) != nullptr;
    }
    uint64_t Drops() { return g_drops; }
    uint64_t Retx() { return g_retx; }
    }
    """)
    rl = cppyy.gbl.rlbench

    # --- TCP: reorderlab's `sack` variant with scenario defaults -------------
    cfg = ns.Config.SetDefault
    cfg("ns3::TcpL4Protocol::SocketType", ns.TypeIdValue(ns.TcpNewReno.GetTypeId()))      # Reno AIMD
    cfg("ns3::TcpL4Protocol::RecoveryType", ns.TypeIdValue(ns.TcpClassicRecovery.GetTypeId()))  # RFC 6675, not PRR
    cfg("ns3::TcpSocketBase::Sack", ns.BooleanValue(True))
    cfg("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(False))
    cfg("ns3::TcpSocketBase::WindowScaling", ns.BooleanValue(True))    # needed for a >64 KB window
    cfg("ns3::TcpSocketBase::LimitedTransmit", ns.BooleanValue(True))  # RFC 3042, as reorderlab
    cfg("ns3::TcpSocketBase::ReTxThreshold", ns.UintegerValue(3))      # dupthresh
    cfg("ns3::TcpSocketBase::MinRto", ns.TimeValue(ns.Time(MIN_RTO)))
    cfg("ns3::TcpSocketBase::ClockGranularity", ns.TimeValue(ns.Time("1ms")))  # G, as reorderlab
    cfg("ns3::TcpSocketBase::UseEcn", ns.StringValue("Off"))
    cfg("ns3::TcpSocket::SegmentSize", ns.UintegerValue(MSS))
    cfg("ns3::TcpSocket::InitialCwnd", ns.UintegerValue(INITIAL_CWND))
    cfg("ns3::TcpSocket::DelAckCount", ns.UintegerValue(1))            # ACK every segment
    cfg("ns3::TcpSocket::SndBufSize", ns.UintegerValue(BUF_BYTES))
    cfg("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(BUF_BYTES))     # rwnd never limits
    cfg("ns3::TcpSocket::DataRetries", ns.UintegerValue(1000))         # never abort a connection
    cfg("ns3::TcpSocket::TcpNoDelay", ns.BooleanValue(True))

    n = args.flows
    left, right = ns.NodeContainer(), ns.NodeContainer()
    left.Create(1)
    right.Create(1)
    senders, receivers = ns.NodeContainer(), ns.NodeContainer()
    senders.Create(n)
    receivers.Create(n)

    # --- Links -------------------------------------------------------------
    # Buffering: ns-3 has a device queue (DropTailQueue in the
    # PointToPointNetDevice) and, on top, a queue disc installed by the
    # traffic-control layer (FqCoDel by default). We remove every queue disc
    # (TrafficControlHelper::Uninstall after address assignment) so that the
    # device queue is the only buffer; a PointToPointNetDevice dequeues the
    # packet it starts sending, so "250p" means 250 packets waiting plus one
    # on the wire, exactly reorderlab's `queue = 250`. When the device queue
    # is full the traffic-control layer drops the packet (flow control stops
    # the transmit queue): drop-tail.
    bn = ns.PointToPointHelper()
    bn.SetDeviceAttribute("DataRate", ns.StringValue(BOTTLENECK_RATE))
    bn.SetChannelAttribute("Delay", ns.StringValue(BOTTLENECK_DELAY))
    bn.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns.QueueSizeValue(ns.QueueSize(BOTTLENECK_QUEUE)))
    acc = ns.PointToPointHelper()
    acc.SetDeviceAttribute("DataRate", ns.StringValue(ACCESS_RATE))
    acc.SetChannelAttribute("Delay", ns.StringValue(ACCESS_DELAY))
    acc.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns.QueueSizeValue(ns.QueueSize(ACCESS_QUEUE)))

    bn_dev = bn.Install(left.Get(0), right.Get(0))
    s_devs = [acc.Install(senders.Get(i), left.Get(0)) for i in range(n)]
    r_devs = [acc.Install(right.Get(0), receivers.Get(i)) for i in range(n)]

    stack = ns.InternetStackHelper()
    for c in (left, right, senders, receivers):
        stack.Install(c)

    addr = ns.Ipv4AddressHelper()
    addr.SetBase(ns.Ipv4Address("10.0.0.0"), ns.Ipv4Mask("255.255.255.0"))
    addr.Assign(bn_dev)
    recv_ifaces = []
    for i in range(n):
        addr.SetBase(ns.Ipv4Address(f"10.1.{i}.0"), ns.Ipv4Mask("255.255.255.0"))
        addr.Assign(s_devs[i])
        addr.SetBase(ns.Ipv4Address(f"10.2.{i}.0"), ns.Ipv4Mask("255.255.255.0"))
        recv_ifaces.append(addr.Assign(r_devs[i]))

    tch = ns.TrafficControlHelper()
    all_devs = [bn_dev] + s_devs + r_devs
    for d in all_devs:
        tch.Uninstall(d)
    for d in all_devs:
        for k in range(d.GetN()):
            assert not rl.HasQueueDisc(d.Get(k)), "a queue disc is still installed"

    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    # --- Applications ------------------------------------------------------
    port = 5000
    for i in range(n):
        dst = ns.InetSocketAddress(recv_ifaces[i].GetAddress(1), port).ConvertTo()
        sink = ns.PacketSinkHelper("ns3::TcpSocketFactory",
                                   ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo())
        sink_apps = sink.Install(receivers.Get(i))
        sink_apps.Start(ns.Seconds(0))
        rl.AddSink(sink_apps.Get(0))
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", dst)
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))       # unending
        bulk.SetAttribute("SendSize", ns.UintegerValue(MSS))
        send_apps = bulk.Install(senders.Get(i))
        send_apps.Start(ns.Seconds(0))
        rl.WatchRetx(send_apps.Get(0))

    rl.WatchDrops(bn_dev.Get(0))
    rl.ScheduleSnapshot(args.measure_from)
    ns.Simulator.Stop(ns.Seconds(args.duration))

    t0 = time.perf_counter()
    ns.Simulator.Run()
    wall = time.perf_counter() - t0

    window = args.duration - args.measure_from
    delivered = [int(rl.RxTotal(i)) for i in range(n)]
    goodput = [(delivered[i] - int(rl.RxFrom(i))) * 8.0 / window for i in range(n)]
    out = {
        "simulator": "ns-3",
        "ns3_version": _version(),
        "flows": n,
        "duration_s": args.duration,
        "measure_from_s": args.measure_from,
        "wall_s": wall,
        "goodput_bps": goodput,
        "bytes_delivered": delivered,
        "bottleneck_drops": int(rl.Drops()),
        "retransmissions": int(rl.Retx()),
    }
    ns.Simulator.Destroy()
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    sys.stdout.flush()
    # cppyy's interpreter can take seconds to tear down; nothing left to do.
    os._exit(0)


def _version():
    try:
        from importlib.metadata import version
        return version("ns3")
    except Exception:
        return "unknown"


if __name__ == "__main__":
    main()
