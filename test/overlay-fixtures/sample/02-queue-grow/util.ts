// Sample layer: a member-by-member merge into the base's Queue class.
class Queue {
  declare head: number;
  declare tail: number;
  declare length: number;
  declare capacityMask: number;
  declare list: unknown[];
  declare dequeuedSize: number;

  constructor(listLength = 8) {
    this.head = 0;
    this.tail = 0;
    // Number of logical entries currently in the queue: (value, size)
    // pairs for default controller queues, descriptor records for byte
    // controller queues.
    this.length = 0;
    this.capacityMask = listLength - 1;
    const list: unknown[] = [];
    list.length = listLength;
    this.list = list;
    this.dequeuedSize = 0;
  }

  // The ring is completely full: double the capacity, re-linearizing from
  // the head so index arithmetic stays trivial.
  grow(): void {
    const list = this.list;
    const capacity = list.length;
    const head = this.head;
    if (head !== 0) {
      const relinearized = list.slice(head);
      for (let i = 0; i < head; i++)
        relinearized.push(list[i]);
      relinearized.length = capacity * 2;
      this.list = relinearized;
      this.head = 0;
    } else {
      list.length = capacity * 2;
    }
    this.tail = capacity;
    this.capacityMask = (capacity * 2) - 1;
  }
}
