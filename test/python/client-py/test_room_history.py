"""vitrine.Client.room's history against a real host (its URL in VITRINE_URL): `log()` answers
the room's changes in order with who made them, across pages and bounded by `limit`;
`presence()` lists the room's named followers."""
import os
import unittest
import urllib.request
import uuid

from vitrine import Client

URL = os.environ["VITRINE_URL"]


class RoomHistory(unittest.TestCase):
    c = Client(URL)

    def test_log_in_order_with_who(self):
        name = f"py-log-{uuid.uuid4()}"
        for i in range(1, 4):
            self.c.set_view(name, opacity=i / 10)
        log = self.c.room(name).log()
        self.assertEqual([e["seq"] for e in log], [1, 2, 3])
        self.assertEqual([e["view"]["opacity"] for e in log], [0.1, 0.2, 0.3])
        self.assertTrue(all(e["type"] == "view" and e["by"] == "anonymous" for e in log))
        self.assertEqual([e["seq"] for e in self.c.room(name).log(since=1, limit=1)], [2])

    def test_presence_lists_named_followers(self):
        name = f"py-here-{uuid.uuid4()}"
        room = self.c.room(name)
        self.assertEqual(room.presence(), [])
        stream = urllib.request.urlopen(f"{URL}/api/rooms/{name}/events?name=ada&kind=notebook")
        try:
            stream.readline()
            peers = room.presence()
            for _ in range(200):
                if peers:
                    break
                peers = room.presence()
            self.assertEqual([(p["name"], p["kind"]) for p in peers], [("ada", "notebook")])
        finally:
            stream.close()


if __name__ == "__main__":
    unittest.main()
