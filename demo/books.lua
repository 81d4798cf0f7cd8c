-- A refund on the billing server's books in Redis (demo/billing.md), for
-- servers started with BILLING_REDIS_URL: every replica of every one of the
-- five servers EVALs this one script, so they all decide a refund alike, and
-- Redis runs it as one step: two replicas refunding the same invoice at once
-- cannot both pass the check before either records its refund.
--
-- KEYS[1]  the cents refunded so far on the invoice ({billing-demo}:refunded:INVOICE_ID)
-- KEYS[2]  how many refunds were made, on any invoice ({billing-demo}:refunds)
-- ARGV[1]  the invoice's refundable cents before any refund (the server's own books)
-- ARGV[2]  the cents to refund
--
-- Answers {1, N}: refunded, the N-th refund ("rf_N"); or {0, CENTS}: refused,
-- CENTS being what is still refundable, and nothing written. The braces in
-- the keys put both in one Redis Cluster slot, as one script's keys must be.
local refundable = tonumber(ARGV[1]) - tonumber(redis.call('GET', KEYS[1]) or '0')
local cents = tonumber(ARGV[2])
if cents > refundable then
  return {0, refundable}
end
redis.call('INCRBY', KEYS[1], cents)
return {1, redis.call('INCR', KEYS[2])}
