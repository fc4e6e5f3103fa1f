# Run with: python3 -m unittest
import json
import unittest

import handler


class HandlerTest(unittest.TestCase):
    def test_lists_every_item(self):
        response = handler.list_items({"routeKey": "GET /items", "rawPath": "/items"}, None)
        self.assertEqual(response["statusCode"], 200)
        self.assertEqual([item["id"] for item in json.loads(response["body"])["items"]], ["1", "2"])

    def test_returns_one_item_by_its_id(self):
        event = {"routeKey": "GET /items/{id}", "rawPath": "/items/2", "pathParameters": {"id": "2"}}
        response = handler.get_item(event, None)
        self.assertEqual(response["statusCode"], 200)
        self.assertEqual(json.loads(response["body"]), {"id": "2", "name": "Pencil", "price": 1.2})

    def test_answers_404_for_an_unknown_id(self):
        event = {"routeKey": "GET /items/{id}", "rawPath": "/items/9", "pathParameters": {"id": "9"}}
        self.assertEqual(handler.get_item(event, None)["statusCode"], 404)


if __name__ == "__main__":
    unittest.main()
