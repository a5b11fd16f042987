package ownerkind

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	cbTypes "example.com/current/ownerkind/api/metering/v1alpha1"
)

// metering: creates a PrestoTable for each ReportDataSource through
// a helper that takes the owner and its GVK. Shaped on
// kube-reporting/metering-operator 0.14.0's pkg/operator
// (prestotables.go's createPrestoTableCR, datasources.go's
// handleReportQueryViewDataSource), which passed the ReportQuery GVK with a
// ReportDataSource owner: the garbage collector found no ReportQuery of
// that name and deleted the PrestoTables (fixed in metering-operator PR
// #724).

type Reporting struct{ enableFinalizers bool }

func (op *Reporting) createPrestoTableCR(obj metav1.Object, gvk schema.GroupVersionKind, tableName string) *cbTypes.PrestoTable {
	ownerRef := metav1.NewControllerRef(obj, gvk)
	return &cbTypes.PrestoTable{
		ObjectMeta: metav1.ObjectMeta{
			Name:            tableName,
			Namespace:       obj.GetNamespace(),
			OwnerReferences: []metav1.OwnerReference{*ownerRef},
		},
	}
}

func (op *Reporting) handleReportQueryViewDataSource(dataSource *cbTypes.ReportDataSource) *cbTypes.PrestoTable {
	return op.createPrestoTableCR(dataSource, cbTypes.ReportQueryGVK, "view_"+dataSource.Name) // want `createPrestoTableCR builds an owner reference naming ReportQuery.metering.example.com for its owner dataSource, a \*v1alpha1.ReportDataSource \(ReportDataSource.metering.example.com\)`
}

// The fixed call, and the ReportQuery's own table: silent.
func (op *Reporting) handleDataSource(dataSource *cbTypes.ReportDataSource) *cbTypes.PrestoTable {
	return op.createPrestoTableCR(dataSource, cbTypes.ReportDataSourceGVK, "ds_"+dataSource.Name)
}

func (op *Reporting) handleReportQuery(query *cbTypes.ReportQuery) *cbTypes.PrestoTable {
	return op.createPrestoTableCR(query, cbTypes.ReportQueryGVK, "query_"+query.Name)
}
