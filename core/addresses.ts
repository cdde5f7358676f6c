import ipaddr from 'ipaddr.js';

/** Whether an IP address is this machine's loopback: 127.0.0.0/8, ::1, or either written inside IPv6 (::ffff:127.0.0.1). */
export function loopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}
