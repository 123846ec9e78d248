// slirp4netns's fixed addresses (its default 10.0.2.0/24): the network a job's namespace is on
// (never refused: its DNS forwarder lives there), its gateway, and the DNS forwarder the job's
// resolv.conf names.

export const SLIRP_NETWORK = '10.0.2.0/24';
export const SLIRP_GATEWAY = '10.0.2.2';
export const SLIRP_DNS = '10.0.2.3';
