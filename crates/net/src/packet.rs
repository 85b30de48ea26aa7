//! Packets live in a pool and are addressed by index, so queues and links
//! move 4-byte ids instead of whole packets, and a packet slot is reused
//! without touching the allocator once the pool has grown to the peak number
//! of packets in flight.

/// A node of the topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct NodeId(pub u32);

/// One direction of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct LinkId(pub u32);

/// Index of a packet in its [`Pool`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacketId(pub u32);

/// A packet: network header plus a payload the network never looks into.
#[derive(Clone, Copy, Debug, Default)]
pub struct Packet<P> {
    pub src: NodeId,
    pub dst: NodeId,
    /// Flow (or traffic source) the packet belongs to.
    pub flow: u32,
    /// Bytes on the wire, headers included.
    pub size: u32,
    /// Multipath route (entry << 16 | path) chosen at the source, or
    /// u32::MAX for hop-by-hop shortest-path routing. Set by the network.
    pub path: u32,
    /// Hops taken along `path`.
    pub hop: u16,
    pub payload: P,
}

impl<P> Packet<P> {
    /// A packet from `src` to `dst` routed by the network's tables.
    pub fn new(src: NodeId, dst: NodeId, flow: u32, size: u32, payload: P) -> Self {
        Packet {
            src,
            dst,
            flow,
            size,
            path: u32::MAX,
            hop: 0,
            payload,
        }
    }
}

/// What the network reads of a packet while forwarding it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Header {
    pub src: NodeId,
    pub dst: NodeId,
    pub flow: u32,
    pub size: u32,
    pub path: u32,
    pub hop: u16,
}

/// A free-list pool of packets, stored as two arrays: the headers the
/// network touches at every hop (24 bytes each, several per cache line) and
/// the payloads only the endpoints read.
pub struct Pool<P> {
    hdr: Vec<Header>,
    payload: Vec<P>,
    free: Vec<u32>,
}

impl<P: Copy + Default> Default for Pool<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: Copy + Default> Pool<P> {
    pub fn new() -> Self {
        Pool {
            hdr: Vec::with_capacity(1024),
            payload: Vec::with_capacity(1024),
            free: Vec::with_capacity(1024),
        }
    }
    #[inline]
    pub fn alloc(&mut self, p: Packet<P>) -> PacketId {
        let h = Header {
            src: p.src,
            dst: p.dst,
            flow: p.flow,
            size: p.size,
            path: p.path,
            hop: p.hop,
        };
        if let Some(i) = self.free.pop() {
            self.hdr[i as usize] = h;
            self.payload[i as usize] = p.payload;
            PacketId(i)
        } else {
            self.hdr.push(h);
            self.payload.push(p.payload);
            PacketId(self.hdr.len() as u32 - 1)
        }
    }
    #[inline]
    pub fn free(&mut self, id: PacketId) {
        self.free.push(id.0);
    }
    /// The whole packet (a copy).
    #[inline]
    pub fn get(&self, id: PacketId) -> Packet<P> {
        let h = &self.hdr[id.0 as usize];
        Packet {
            src: h.src,
            dst: h.dst,
            flow: h.flow,
            size: h.size,
            path: h.path,
            hop: h.hop,
            payload: self.payload[id.0 as usize],
        }
    }
    #[inline]
    pub fn header(&self, id: PacketId) -> &Header {
        &self.hdr[id.0 as usize]
    }
    #[inline]
    pub fn header_mut(&mut self, id: PacketId) -> &mut Header {
        &mut self.hdr[id.0 as usize]
    }
    #[inline]
    pub fn payload(&self, id: PacketId) -> &P {
        &self.payload[id.0 as usize]
    }
    /// Asks the CPU to bring a payload into cache ahead of its use: the
    /// network does so when a packet takes its last link, so the endpoint
    /// finds it there on arrival instead of in memory (payloads are written
    /// at send time, an RTT before, and a 2 Gbit/s run's packets in flight
    /// outgrow the cache). A hint only; no effect off x86-64.
    #[inline(always)]
    pub fn prefetch_payload(&self, id: PacketId) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = self.payload.get(id.0 as usize) {
            // SAFETY: prefetching is a hint that never faults; the pointer
            // is to a live element anyway.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                let p = (p as *const P).cast::<i8>();
                _mm_prefetch::<_MM_HINT_T0>(p);
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(std::mem::size_of::<P>() - 1));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = id;
    }
    /// Packets currently allocated.
    pub fn live(&self) -> usize {
        self.hdr.len() - self.free.len()
    }
    /// Largest number of packets ever allocated at once.
    pub fn capacity_used(&self) -> usize {
        self.hdr.len()
    }
}
