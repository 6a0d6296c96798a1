/**
 * A deposit address as the payer reads it: "0x" then ten groups of four characters, the first
 * and last groups emphasised — the characters people compare, and the ones address-poisoning
 * look-alikes copy. Display only: what is copied is always the plain address.
 */
export interface AddressGroup {
  text: string;
  emphasis: boolean;
}

export function addressGroups(address: string): AddressGroup[] {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`not a 20-byte hex address: ${JSON.stringify(address)}`);
  const hex = address.slice(2);
  const groups: AddressGroup[] = [{ text: "0x", emphasis: false }];
  for (let i = 0; i < hex.length; i += 4) groups.push({ text: hex.slice(i, i + 4), emphasis: i === 0 || i + 4 >= hex.length });
  return groups;
}
