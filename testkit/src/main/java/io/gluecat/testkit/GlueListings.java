package io.gluecat.testkit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.services.glue.model.GetDatabasesRequest;
import software.amazon.awssdk.services.glue.model.GetDatabasesResponse;
import software.amazon.awssdk.services.glue.model.GetPartitionsRequest;
import software.amazon.awssdk.services.glue.model.GetPartitionsResponse;
import software.amazon.awssdk.services.glue.model.GetTablesRequest;
import software.amazon.awssdk.services.glue.model.GetTablesResponse;

/**
 * Glue's listings as Glue answers them, for {@link GlueSemantics}' switches: paged with the kit's own tokens
 * ({@link GlueSemantics#pageListings}), GetPartitions filtered by its Expression and paged by MaxResults
 * ({@link GlueSemantics#filterAndPagePartitions}) and cut to its Segment ({@link GlueSemantics#segmentPartitions}).
 */
final class GlueListings {

    private static final String PAGE_TOKEN_PREFIX = "gluecat-testkit-page-";
    private static final ExecutionAttribute<Integer> PAGE_OFFSET =
            new ExecutionAttribute<>("io.gluecat.testkit.GlueListings.pageOffset");
    /** A later page's listing: the kept first answer it is cut from, and that answer's id for the next token. */
    private record KeptListing(long id, List<?> entries) { }
    private static final ExecutionAttribute<KeptListing> PAGE_LISTING =
            new ExecutionAttribute<>("io.gluecat.testkit.GlueListings.pageListing");
    /** A GetTables filter no table name matches: a later page's request then costs MiniStack nothing to answer. */
    private static final String NO_TABLE = "gluecat-testkit-later-page-of-a-listing";
    /** The request's Expression as Glue reads it, against the table's partition keys. */
    private static final ExecutionAttribute<PartitionExpression> PARTITION_FILTER =
            new ExecutionAttribute<>("io.gluecat.testkit.GlueListings.partitionFilter");
    /** The full first answers of the latest paged table (and emulated partition) listings, by id. */
    private static final LinkedHashMap<Long, List<?>> LISTINGS = new LinkedHashMap<>() {   // guarded by GlueCallRecorder.LOCK
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, List<?>> eldest) {
            return size() > 32;
        }
    };
    private static long listingSequence;                                      // guarded by GlueCallRecorder.LOCK

    private GlueListings() {
    }

    static SdkRequest modifyRequest(SdkRequest request, ExecutionAttributes attributes) {
        String token = request instanceof GetTablesRequest ? ((GetTablesRequest) request).nextToken()
                : request instanceof GetDatabasesRequest ? ((GetDatabasesRequest) request).nextToken()
                : request instanceof GetPartitionsRequest ? ((GetPartitionsRequest) request).nextToken() : null;
        if (token != null) {
            attributes.putAttribute(Attempt.SENT_TOKEN, token);   // recorded as sent, before a kit token is taken out
        }
        if (token == null || !token.startsWith(PAGE_TOKEN_PREFIX)) {
            return request;
        }
        String[] listingAndOffset = token.substring(PAGE_TOKEN_PREFIX.length()).split("-");
        attributes.putAttribute(PAGE_OFFSET, Integer.parseInt(listingAndOffset[1]));
        if (request instanceof GetTablesRequest && ((GetTablesRequest) request).expression() == null) {
            long id = Long.parseLong(listingAndOffset[0]);
            List<?> listing;
            synchronized (GlueCallRecorder.LOCK) {
                listing = LISTINGS.get(id);
            }
            if (listing != null) {
                attributes.putAttribute(PAGE_LISTING, new KeptListing(id, listing));
                return ((GetTablesRequest) request).toBuilder().nextToken(null).expression(NO_TABLE).build();
            }
        }
        if (request instanceof GetPartitionsRequest get) {
            long id = Long.parseLong(listingAndOffset[0]);
            List<?> listing;
            synchronized (GlueCallRecorder.LOCK) {
                listing = id == 0 ? null : LISTINGS.get(id);
            }
            if (listing != null) {
                // a later page of a kept answer: MiniStack is asked for a table that does not exist (an empty answer)
                attributes.putAttribute(PAGE_LISTING, new KeptListing(id, listing));
                attributes.putAttribute(Attempt.SENT_TABLE, get.tableName());
                return get.toBuilder().nextToken(null).tableName(NO_TABLE).build();
            }
            return get.toBuilder().nextToken(null).build();
        }
        return request instanceof GetTablesRequest ? ((GetTablesRequest) request).toBuilder().nextToken(null).build()
                : ((GetDatabasesRequest) request).toBuilder().nextToken(null).build();
    }

    static SdkResponse modifiedResponse(Context.ModifyResponse context, ExecutionAttributes attributes,
                                        int size, boolean asGlue, boolean segments) {
        SdkResponse response = context.response();
        if (asGlue && response instanceof GetPartitionsResponse partitions) {
            PartitionExpression filter = attributes.getAttribute(PARTITION_FILTER);
            if (filter != null) {
                response = partitions.toBuilder().partitions(partitions.partitions().stream()
                        .filter(p -> filter.matches(p.values())).toList()).build();
            }
        }
        if (segments) {
            response = segmented(context.request(), response);
        }
        if (response instanceof GetPartitionsResponse && size <= 0 && (asGlue || size == GlueSemantics.GLUE_PAGES)) {
            size = glueSize(((GetPartitionsRequest) context.request()).maxResults(), GlueSemantics.PARTITIONS_PER_PAGE);
        } else if (size == GlueSemantics.GLUE_PAGES) {
            Integer max = context.request() instanceof GetTablesRequest t ? t.maxResults()
                    : context.request() instanceof GetDatabasesRequest d ? d.maxResults() : null;
            size = glueSize(max, GlueSemantics.TABLES_PER_PAGE);
        }
        if (size == 0 || !(response instanceof GetTablesResponse || response instanceof GetDatabasesResponse
                || response instanceof GetPartitionsResponse)) {
            return response;
        }
        Integer attributeOffset = attributes.getAttribute(PAGE_OFFSET);
        int offset = attributeOffset == null ? 0 : attributeOffset;
        if (response instanceof GetPartitionsResponse) {
            GetPartitionsResponse partitions = (GetPartitionsResponse) response;
            KeptListing kept = attributes.getAttribute(PAGE_LISTING);
            List<?> all = kept != null ? kept.entries() : partitions.partitions();
            long listing = kept != null ? kept.id() : 0;
            if (asGlue && kept == null && attributeOffset == null && all.size() > size) {
                // kept, as a table listing is: later pages then cost MiniStack nothing, as a page costs Glue little
                listing = keep(all);
            }
            return partitions.toBuilder().partitions(page(all, offset, size))
                    .nextToken(nextToken(listing, all.size(), offset, size)).build();
        }
        if (response instanceof GetTablesResponse) {
            GetTablesResponse tables = (GetTablesResponse) response;
            KeptListing kept = attributes.getAttribute(PAGE_LISTING);
            List<?> all = kept != null ? kept.entries() : tables.tableList();
            long listing = kept != null ? kept.id() : 0;
            if (kept == null && attributeOffset == null && all.size() > size
                    && ((GetTablesRequest) context.request()).expression() == null) {
                listing = keep(all);
            }
            return tables.toBuilder().tableList(page(all, offset, size))
                    .nextToken(nextToken(listing, all.size(), offset, size)).build();
        }
        GetDatabasesResponse databases = (GetDatabasesResponse) response;
        List<?> all = databases.databaseList();
        return databases.toBuilder().databaseList(page(all, offset, size))
                .nextToken(nextToken(0, all.size(), offset, size)).build();
    }

    /** Glue's page for a request's MaxResults: that many, at most {@code limit}, and {@code limit} when unset. */
    private static int glueSize(Integer max, int limit) {
        return max == null ? limit : Math.max(1, Math.min(max, limit));
    }

    /** Keeps a listing's full first answer for its later pages; returns its id. */
    private static long keep(List<?> all) {
        synchronized (GlueCallRecorder.LOCK) {
            long listing = ++listingSequence;
            LISTINGS.put(listing, all);
            return listing;
        }
    }

    /** A GetPartitions answer cut to the request's Segment, as Glue cuts it. */
    private static SdkResponse segmented(SdkRequest request, SdkResponse response) {
        if (!(response instanceof GetPartitionsResponse partitions)
                || !(request instanceof GetPartitionsRequest get) || get.segment() == null) {
            return response;
        }
        int number = get.segment().segmentNumber();
        int total = get.segment().totalSegments();
        return partitions.toBuilder().partitions(partitions.partitions().stream()
                .filter(p -> Math.floorMod(p.values().hashCode(), total) == number).toList()).build();
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> page(List<?> all, int offset, int size) {
        return (List<T>) all.subList(Math.min(offset, all.size()), Math.min(offset + size, all.size()));
    }

    /** The kit's token of the page after this one: the listing whose first answer is kept (0: none), the offset. */
    private static String nextToken(long listing, int total, int offset, int size) {
        return offset + size < total ? PAGE_TOKEN_PREFIX + listing + "-" + (offset + size) : null;
    }

    /**
     * Reads a GetPartitions request's Expression against the table's partition keys, kept for the answer; one
     * Glue refuses is answered as Glue answers it, without sending it.
     */
    static void refuseOrKeepPartitionFilter(Context.BeforeTransmission context, ExecutionAttributes attributes,
                                            Attempt attempt) {
        if (!(context.request() instanceof GetPartitionsRequest get) || get.expression() == null) {
            return;
        }
        List<Map.Entry<String, String>> keys = TableKeys.of(context.httpRequest(), get.catalogId(), get.databaseName(),
                get.tableName());
        if (keys == null || keys == TableKeys.NO_TABLE) {
            return;   // no such table, or the server would not say: the answer is the server's
        }
        try {
            attributes.putAttribute(PARTITION_FILTER, PartitionExpression.parse(get.expression(), keys));
        } catch (PartitionExpression.Invalid e) {
            Fault refusal = Fault.glue("GetPartitions").error("InvalidInputException", 400).message(e.getMessage())
                    .build();
            AwsServiceException failure = AwsErrors.serviceException(refusal, attempt, context.request());
            synchronized (GlueCallRecorder.LOCK) {
                attempt.failed(failure, 400, "InvalidInputException");
            }
            throw failure;
        }
    }
}
