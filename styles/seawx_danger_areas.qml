<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>
<!-- seawx: the 1-2-3 danger area, red and translucent with a dashed outline. Apply in QGIS: Layer Properties > Symbology > Style > Load Style. -->
<qgis version="3.22.0" styleCategories="Symbology">
  <renderer-v2 type="singleSymbol" symbollevels="0" enableorderby="0" forceraster="0">
    <symbols>
      <symbol type="fill" name="0" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleFill" enabled="1" pass="0" locked="0">
          <Option type="Map">
            <Option type="QString" name="color" value="255,64,64,51"/>
            <Option type="QString" name="style" value="solid"/>
            <Option type="QString" name="outline_color" value="192,0,26,255"/>
            <Option type="QString" name="outline_width" value="0.6"/>
            <Option type="QString" name="outline_style" value="dash"/>
          </Option>
        </layer>
      </symbol>
    </symbols>
  </renderer-v2>
  <layerGeometryType>2</layerGeometryType>
</qgis>
