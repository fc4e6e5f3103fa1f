import json

# A fixed catalogue keeps the example self-contained; swap it for a table when you need one.
ITEMS = [
    {"id": "1", "name": "Notebook", "price": 4.5},
    {"id": "2", "name": "Pencil", "price": 1.2},
]


def list_items(event, context):
    return _json(200, {"items": ITEMS})


# HTTP API events use payload format 2.0: the path parameter is in event["pathParameters"].
def get_item(event, context):
    item_id = event["pathParameters"]["id"]
    item = next((item for item in ITEMS if item["id"] == item_id), None)
    if item is None:
        return _json(404, {"message": f'No item with id "{item_id}"'})
    return _json(200, item)


def _json(status_code, body):
    return {
        "statusCode": status_code,
        "headers": {"content-type": "application/json"},
        "body": json.dumps(body),
    }
