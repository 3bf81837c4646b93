// The three order systems' shapes, one source for the runtime's unit tests
// (`src/rules/shape/tests.rs`) and the workspace's integration tests (`tof_support::shapes`):
// included with `include!`, so the includer brings `Shape` and `Convert` into scope.

/// The legacy system: numeric status codes, epoch seconds, cents.
pub fn legacy_shape() -> Shape {
    Shape::new()
        .keep(["order_id", "status", "created_ts", "total_cents"])
        .rename("created_ts", "created_at")
        .rename("total_cents", "amount")
        .convert("order_id", Convert::prefix("ORD-"))
        .convert(
            "status",
            Convert::map([
                (1, "pending"),
                (2, "processing"),
                (3, "shipped"),
                (4, "delivered"),
                (5, "cancelled"),
            ]),
        )
        .convert("created_ts", Convert::EpochSeconds)
        .convert("total_cents", Convert::Cents)
}

/// The v2 system: camelCase keys, RFC 3339 timestamps, amounts as decimal strings.
pub fn v2_shape() -> Shape {
    Shape::new()
        .keep(["orderId", "status", "createdAt", "totalAmount"])
        .rename("orderId", "order_id")
        .rename("createdAt", "created_at")
        .rename("totalAmount", "amount")
        .convert("orderId", Convert::prefix("ORD-"))
        .convert("createdAt", Convert::Timestamp)
        .convert("totalAmount", Convert::Fixed(2))
}

/// The v3 shape as a shape file, to show both doors lead to the same rules.
pub fn v3_shape() -> Shape {
    Shape::from_json_str(
        r#"{
            "keep": ["id", "order_status", "creation_date", "amount"],
            "rename": {"id": "order_id", "order_status": "status", "creation_date": "created_at"},
            "convert": {
                "id": {"prefix": "ORD-"},
                "order_status": {"map": {"pending": "pending", "in_transit": "shipped",
                                         "fulfilled": "delivered", "voided": "cancelled"}},
                "creation_date": "timestamp",
                "amount": {"fixed": 2}
            }
        }"#,
    )
    .unwrap()
}
